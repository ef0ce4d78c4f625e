import { AuditEvents, InvitedStaffMember, SessionToken, StaffMembers } from "@petstore/contract";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_ROOT } from "./base/env.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "./test/test-app.js";
import { ConfiguredKeys } from "./access/configured-keys.js";
import { IssuedKeys } from "./access/issued-keys.js";
import { unlimited } from "./access/rate-limit.js";
import { StaffSessions } from "./staff/sessions.js";
import { sessionCookieOf } from "./staff/session-cookie.js";

const run = promisify(execFile);
const COMMAND = path.join(API_ROOT, "dist", "staff-command.js");

describe.each(TEST_PROVIDERS)("the staff operator command on %s (built)", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  const staff = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [COMMAND, ...args], {
      cwd: API_ROOT,
      env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: t.config.databaseUrl, ...env },
    });

  it("invite prints the whole link once; list shows the person; disable refuses their tokens within 2 s; audited as the operator", async () => {
    const invited = await staff(
      { ADMIN_ORIGIN: "https://admin.example-store.com" },
      "invite",
      "--email",
      "Ada@Example.com",
      "--name",
      "Ada Admin",
      "--role",
      "admin",
    );
    const link = invited.stdout.trim();
    expect(link).toMatch(/^https:\/\/admin\.example-store\.com\/invite#[A-Za-z0-9_-]{43}$/);
    expect(invited.stderr).toContain('"Ada Admin" <ada@example.com> (admin, invited)');
    const token = link.split("#")[1]!;
    expect((await request(t.app).post("/admin/v1/invitations/lookup").send({ token }).expect(200)).body).toMatchObject({
      name: "Ada Admin",
      role: "admin",
    });

    const listed = await staff({}, "list");
    expect(listed.stdout).toMatch(/^1\tAda Admin\tada@example\.com\tadmin\tinvited\tcreated /);
    expect(listed.stdout).not.toContain(token);
    const [member] = StaffMembers.parse(
      (await request(t.app).get("/admin/v1/staff").set("Authorization", bearer())).body,
    );
    expect(member).toMatchObject({ id: 1, createdBy: null });

    // Signed in (as the passkey ceremony will), with a token the API holds.
    const sessions = new StaffSessions({
      repository: t.database.staff,
      issuedKeys: new IssuedKeys({ repository: t.database.access }),
      configuredKeys: new ConfiguredKeys(t.config.apiKeys, t.database.access),
      adminOrigin: t.config.adminOrigin,
      idleMs: t.config.sessions.idleMs,
      maxMs: t.config.sessions.maxMs,
      authFailures: unlimited,
    });
    const cookies: string[] = [];
    const fakeRes = { append: (_name: string, value: string) => void cookies.push(value) };
    await sessions.startStaffSession(
      { headers: {}, ip: "127.0.0.1", id: "" } as never,
      fakeRes as never,
      member!,
      "passkey",
    );
    const cookie = sessionCookieOf({ headers: { cookie: cookies[0]!.split(";")[0]! } })!;
    const minted = SessionToken.parse(
      (
        await request(t.app)
          .post("/admin/v1/session/token")
          .set("Cookie", `__Host-petstore-session=${cookie}`)
          .set("Origin", t.config.adminOrigin!)
          .expect(201)
      ).body,
    );
    await request(t.app).get("/v1/pets").set("Authorization", `Bearer ${minted.token}`).expect(200);

    const disabled = await staff({}, "disable", "1");
    expect(disabled.stdout).toContain('Disabled staff member 1 "Ada Admin" <ada@example.com> (admin, disabled)');
    await expect
      .poll(async () => (await request(t.app).get("/v1/pets").set("Authorization", `Bearer ${minted.token}`)).status, {
        timeout: 2_000,
        interval: 50,
      })
      .toBe(401);

    const events = AuditEvents.parse(
      (await request(t.app).get("/admin/v1/audit-events").set("Authorization", bearer())).body,
    );
    expect(events.filter((event) => event.actor.keyId === "operator").map((event) => event.action)).toEqual([
      "staff.disabled",
      "staff.invited",
    ]);
    expect(JSON.stringify(events)).not.toContain(token);
  }, 60_000);

  it("refuses bad input with exit code 1 and a line saying why, storing nothing", async () => {
    await expect(
      staff({}, "invite", "--email", "x@example.com", "--name", "X", "--role", "owner"),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("--role") });
    await expect(staff({}, "invite", "--email", "not-an-email", "--name", "X", "--role", "read")).rejects.toMatchObject(
      { code: 1, stderr: expect.stringContaining("--email") },
    );
    await expect(
      staff({ NODE_ENV: "production" }, "invite", "--email", "x@example.com", "--name", "X", "--role", "read"),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("ADMIN_ORIGIN"),
    });
    await expect(staff({}, "disable", "staff-1")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("decimal digits"),
    });
    await expect(staff({}, "disable", "42")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No staff member has id 42"),
    });
    await expect(staff({}, "remove")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("Usage:") });
    expect((await staff({}, "list")).stdout).toBe("No staff members.\n");
    // The default origin in development.
    const invited = await staff({}, "invite", "--email", "dev@example.com", "--name", "Dev", "--role", "read");
    expect(invited.stdout).toMatch(/^http:\/\/localhost:5173\/invite#/);
    InvitedStaffMember.shape.invitationUrl.parse(invited.stdout.trim());
  }, 60_000);
});
