/**
 * The operator command for staff (people who sign in as themselves), on the database DATABASE_URL names:
 *
 *   staff invite --email EMAIL --name NAME --role read|write|admin   prints the invitation link, once
 *   staff list
 *   staff disable ID
 *
 * Run as `corepack pnpm --filter @petstore/api staff ...` (after a build). It works before anyone has a
 * browser session, so the first admin can be invited; its changes are audited with the actor
 * "Operator command". The link's base is ADMIN_ORIGIN (development: http://localhost:5173). A disabled
 * person's sessions and tokens are refused by every running API process within 2 seconds.
 */
import { NewStaffMember, StaffIdParams, type StaffMember } from "@petstore/contract";
import { parseArgs } from "node:util";
import { OPERATOR_CONTEXT } from "./activity/audit-event.js";
import { openDatabase } from "./database.js";
import { migrateDatabase } from "./data/migrate.js";
import { ConfigError, loadDotEnvFile, readDatabaseConfig } from "./base/env.js";
import { invitationUrl, newInvitation } from "./staff/staff-router.js";

const USAGE = `Usage:
  staff invite --email EMAIL --name NAME --role read|write|admin
  staff list
  staff disable ID`;

class UsageError extends Error {}

const status = (staff: StaffMember) => (staff.disabledAt ? "disabled" : staff.lastSignInAt ? "active" : "invited");

function describe(staff: StaffMember): string {
  return `staff member ${staff.id} "${staff.name}" <${staff.email}> (${staff.role}, ${status(staff)})`;
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  loadDotEnvFile();
  const config = readDatabaseConfig();
  const parsed = parseArgs({
    args: rest,
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (command !== "invite" && command !== "list" && command !== "disable") throw new UsageError(USAGE);
  let invite: NewStaffMember | undefined;
  if (command === "invite") {
    const input = NewStaffMember.safeParse({
      email: parsed.values.email,
      name: parsed.values.name,
      role: parsed.values.role,
    });
    if (!input.success)
      throw new UsageError(
        `${input.error.issues.map((issue) => `--${String(issue.path[0])}: ${issue.message}`).join("; ")}\n${USAGE}`,
      );
    if (!config.adminOrigin)
      throw new UsageError(
        "ADMIN_ORIGIN must be set (the origin staff open the admin app at): invitation links point there.",
      );
    invite = input.data;
  }

  await migrateDatabase(config.databaseUrl);
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: 1,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
  });
  try {
    if (invite) {
      const invitation = newInvitation(Date.now());
      const staff = await database.staff.inviteStaff({ ...invite, createdBy: null }, invitation, OPERATOR_CONTEXT);
      if (staff === "email-taken") throw new UsageError(`A staff member has the email ${invite.email} already.`);
      process.stderr.write(
        `Invited ${describe(staff)}.\nTheir invitation link follows, valid until ${invitation.expiresAt.toISOString()} and shown this once: hand it over now.\n`,
      );
      process.stdout.write(`${invitationUrl(config.adminOrigin!, invitation.token)}\n`);
    } else if (command === "list") {
      const staff = await database.staff.listStaff();
      if (staff.length === 0) process.stdout.write("No staff members.\n");
      for (const member of staff) {
        process.stdout.write(
          [
            member.id,
            member.name,
            member.email,
            member.role,
            status(member),
            `created ${member.createdAt}`,
            `last sign-in ${member.lastSignInAt ?? "never"}`,
          ].join("\t") + "\n",
        );
      }
    } else {
      const id = StaffIdParams.safeParse({ staffId: parsed.positionals[0] ?? "" });
      if (!id.success) throw new UsageError(`ID must be a staff member's id (decimal digits).\n${USAGE}`);
      const disabled = await database.staff.disableStaff(id.data.staffId, OPERATOR_CONTEXT);
      if (!disabled) throw new UsageError(`No staff member has id ${id.data.staffId}.`);
      process.stdout.write(`Disabled ${describe(disabled.staff)}.\n`);
    }
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof UsageError || error instanceof ConfigError ? error.message : error instanceof Error ? `staff: ${error.message}` : String(error)}\n`,
  );
  process.exitCode = 1;
});
