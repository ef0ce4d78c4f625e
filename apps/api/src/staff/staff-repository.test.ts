import { randomUUID } from "node:crypto";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPERATOR_CONTEXT, type AuditContext } from "../activity/audit-event.js";
import { openDatabase, type Database } from "../database.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test/test-app.js";
import { newInvitation } from "./staff-router.js";

/** One statement on the test's database, behind the repositories' backs: a state older code could leave. */
async function rawSql(url: string, sql: string): Promise<void> {
  if (url.startsWith("file:")) {
    const connection = new Sqlite(url.slice("file:".length));
    try {
      connection.exec(sql);
    } finally {
      connection.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const ADMIN_CONTEXT: AuditContext = {
  actor: { keyId: "7", staffId: null, name: "Head office" },
  requestId: "req-1",
  clientAddress: "192.0.2.1",
};

describe.each(TEST_PROVIDERS)(
  "the staff repository on %s (for the passkey and single sign-on ceremonies)",
  (provider) => {
    let db: TestDatabase;
    let database: Database;
    beforeEach(async () => {
      db = await freshDatabase(provider);
      database = await openDatabase({ url: db.url, poolSize: 2 });
    });
    afterEach(async () => {
      await database.close();
      await db.remove();
    });

    async function invite(email = "sam@example.com") {
      const invitation = newInvitation(Date.now());
      const staff = await database.staff.inviteStaff(
        { email, name: "Sam", role: "write", createdBy: null },
        invitation,
        OPERATOR_CONTEXT,
      );
      if (staff === "email-taken") throw new Error("taken");
      return { staff, invitation };
    }

    it("an invitation is used once, never after it expires, never for a disabled person", async () => {
      const { staff, invitation } = await invite();
      expect(await database.staff.findInvitation(invitation.tokenDigest, new Date())).toMatchObject({
        staff: { id: staff.id },
      });
      expect(await database.staff.useInvitation(invitation.tokenDigest, new Date())).toMatchObject({ id: staff.id });
      expect(await database.staff.useInvitation(invitation.tokenDigest, new Date())).toBeNull();
      expect(await database.staff.findInvitation(invitation.tokenDigest, new Date())).toBeNull();
      const late = await invite("late@example.com");
      expect(
        await database.staff.useInvitation(
          late.invitation.tokenDigest,
          new Date(late.invitation.expiresAt.getTime() + 1),
        ),
      ).toBeNull();
      const gone = await invite("gone@example.com");
      await database.staff.disableStaff(gone.staff.id, OPERATOR_CONTEXT);
      expect(await database.staff.findInvitation(gone.invitation.tokenDigest, new Date())).toBeNull();
      expect(await database.staff.useInvitation(gone.invitation.tokenDigest, new Date())).toBeNull();
    });

    it("an email invited again: renewed while the person never signed in and holds no passkey, the earlier invitation ended", async () => {
      const first = await invite();
      const again = newInvitation(Date.now());
      const renewed = await database.staff.inviteStaff(
        { email: "sam@example.com", name: "Sam Again", role: "read", createdBy: null },
        again,
        OPERATOR_CONTEXT,
      );
      expect(renewed).toEqual({ ...first.staff, name: "Sam Again", role: "read" });
      expect(await database.staff.findInvitation(first.invitation.tokenDigest, new Date())).toBeNull();
      expect(await database.staff.findInvitation(again.tokenDigest, new Date())).toMatchObject({
        staff: { id: first.staff.id },
      });
      // A passkey (stored, though no session began): the email is theirs for good.
      await database.staff.addPasskey(
        {
          staffId: first.staff.id,
          credentialId: "cred-renew",
          publicKey: "pk",
          counter: 0,
          transports: [],
          name: "Laptop",
        },
        OPERATOR_CONTEXT,
        "Sam Again",
      );
      expect(
        await database.staff.inviteStaff(
          { email: "sam@example.com", name: "Sam", role: "admin", createdBy: null },
          newInvitation(Date.now()),
          OPERATOR_CONTEXT,
        ),
      ).toBe("email-taken");
      expect(await database.staff.findInvitation(again.tokenDigest, new Date())).toMatchObject({
        staff: { role: "read" },
      });
    });

    it("passkeys: added (passkey.added), found by credential id, counter recorded, renamed, the last one kept", async () => {
      const { staff } = await invite();
      const first = await database.staff.addPasskey(
        {
          staffId: staff.id,
          credentialId: "cred-1",
          publicKey: "pk-1",
          counter: 0,
          transports: ["internal", "hybrid"],
          name: "Laptop",
        },
        OPERATOR_CONTEXT,
        staff.name,
      );
      expect(await database.staff.findPasskey("cred-1")).toMatchObject({
        id: first.id,
        staffId: staff.id,
        transports: ["internal", "hybrid"],
        counter: 0,
      });
      await database.staff.recordPasskeyUse(first.id, 7, new Date());
      expect(await database.staff.findPasskey("cred-1")).toMatchObject({ counter: 7, lastUsedAt: expect.any(Date) });
      expect(await database.staff.renamePasskey(staff.id, first.id, "Work laptop")).toMatchObject({
        name: "Work laptop",
      });
      expect(await database.staff.renamePasskey(staff.id + 1, first.id, "Not yours")).toBeNull();
      expect(await database.staff.removePasskey(staff.id, first.id, OPERATOR_CONTEXT, staff.name)).toBe("last");
      const second = await database.staff.addPasskey(
        { staffId: staff.id, credentialId: "cred-2", publicKey: "pk-2", counter: 0, transports: [], name: "Phone" },
        OPERATOR_CONTEXT,
        staff.name,
      );
      expect(await database.staff.removePasskey(staff.id, first.id, OPERATOR_CONTEXT, staff.name)).toBe("removed");
      expect((await database.staff.listPasskeys(staff.id)).map((passkey) => passkey.id)).toEqual([second.id]);
      const actions = (await database.activity.listAuditEvents({ take: 10 })).map((event) => event.action);
      expect(actions).toEqual(["passkey.removed", "passkey.added", "passkey.added", "staff.invited"]);
    });

    it("single sign-on: tied by issuer and sub, joins an untied person by verified email only, the role read again every time", async () => {
      const { staff } = await invite("kim@example.com");
      const request = { requestId: null, clientAddress: null };
      const identity = {
        issuer: "https://idp.example.com",
        subject: "sub-1",
        email: "Kim@Example.com",
        emailVerified: false,
        fallbackEmail: "sso-sub-1@idp.example.com.invalid",
        name: "Kim",
        role: "read" as const,
      };
      // Unverified: a new person, who cannot take the invited person's email.
      const stranger = await database.staff.findOrCreateForSso(identity, new Date(), request);
      expect(stranger).toMatchObject({
        how: "created",
        roleChanged: false,
        staff: { email: "sso-sub-1@idp.example.com.invalid" },
      });
      expect("staff" in stranger && stranger.staff.id).not.toBe(staff.id);
      // Verified, another subject: joins the invited person, with the provider's role.
      const joined = await database.staff.findOrCreateForSso(
        { ...identity, subject: "sub-2", emailVerified: true, role: "admin" },
        new Date(),
        request,
      );
      expect(joined).toMatchObject({ how: "joined", roleChanged: true, staff: { id: staff.id, role: "admin" } });
      // Later sign-ins: found by issuer and sub, the role as the provider says now.
      expect(
        await database.staff.findOrCreateForSso(
          { ...identity, subject: "sub-2", email: "other@example.com", role: "write" },
          new Date(),
          request,
        ),
      ).toMatchObject({
        how: "tied",
        roleChanged: true,
        staff: { id: staff.id, role: "write" },
      });
      // Tied now (and so taken): the same verified email from another identity joins nobody, and is refused.
      const other = await database.staff.findOrCreateForSso(
        { ...identity, subject: "sub-4", emailVerified: true, fallbackEmail: "sso-sub-4@idp.example.com.invalid" },
        new Date(),
        request,
      );
      expect(other).toEqual({ refused: "account-exists", staffId: staff.id });
      const fresh = await database.staff.findOrCreateForSso(
        { ...identity, subject: "sub-3", email: "new@example.com" },
        new Date(),
        request,
      );
      expect(fresh).toMatchObject({
        how: "created",
        staff: { email: "new@example.com", name: "Kim", role: "read", createdBy: null },
      });
      // Each change of role is recorded, by the person.
      const changes = (await database.activity.listAuditEvents({ take: 20 })).filter(
        (event) => event.action === "staff.role_changed",
      );
      expect(changes.map((event) => [event.detail, event.actor.staffId])).toEqual([
        ["write", staff.id],
        ["admin", staff.id],
      ]);
      // Disabled: answered as they are, nothing changed.
      await database.staff.disableStaff(staff.id, OPERATOR_CONTEXT);
      expect(
        await database.staff.findOrCreateForSso({ ...identity, subject: "sub-2", role: "read" }, new Date(), request),
      ).toMatchObject({
        how: "tied",
        roleChanged: false,
        staff: { id: staff.id, role: "write" },
      });
    });

    /** A sign-in as the ceremonies record it: a session and `staff.signed_in`. */
    async function signIn(
      staffId: number,
      name: string,
      detail: "passkey" | "sso" = "passkey",
      keyId: string | null = null,
    ) {
      const now = new Date();
      return database.staff.createSession(
        {
          digest: randomUUID(),
          staffId: keyId === null ? staffId : null,
          keyId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
          userAgent: null,
        },
        keyId === null
          ? {
              action: "staff.signed_in",
              detail,
              target: { type: "staff", id: staffId, label: name },
              audit: OPERATOR_CONTEXT,
            }
          : {
              action: "key.signed_in",
              detail: null,
              target: { type: "key", id: Number(keyId), label: name },
              audit: OPERATOR_CONTEXT,
            },
      );
    }
    const passkeyOf = (staffId: number, credentialId: string) => ({
      staffId,
      credentialId,
      publicKey: "pk",
      counter: 0,
      transports: [],
      name: "Laptop",
    });
    const request = { requestId: null, clientAddress: null };
    const identityOf = (email: string, subject: string) => ({
      issuer: "https://idp.example.com",
      subject,
      email,
      emailVerified: true,
      fallbackEmail: `sso-${subject}@idp.example.com.invalid`,
      name: "From the provider",
      role: "admin" as const,
    });

    it("a person's open invitations end at their first sign-in, by any means; an invitation of a person who has signed in is refused like a used one", async () => {
      // Signed in with single sign-on (or any way): the link they were sent is dead, its passkey never stored.
      const { staff, invitation } = await invite("ana@example.com");
      await signIn(staff.id, staff.name, "sso");
      expect(await database.staff.findInvitation(invitation.tokenDigest, new Date())).toBeNull();
      expect(
        await database.staff.acceptInvitation(
          invitation.tokenDigest,
          passkeyOf(staff.id, "cred-ana"),
          new Date(),
          OPERATOR_CONTEXT,
        ),
      ).toBeNull();
      expect(await database.staff.useInvitation(invitation.tokenDigest, new Date())).toBeNull();
      expect(await database.staff.listPasskeys(staff.id)).toEqual([]);

      // An open invitation beside a sign-in (as a join before this rule could leave): refused all the same.
      const legacy = await invite("leo@example.com");
      await rawSql(db.url, `UPDATE "StaffMember" SET "lastSignInAt" = "createdAt" WHERE "id" = ${legacy.staff.id}`);
      expect(await database.staff.findInvitation(legacy.invitation.tokenDigest, new Date())).toBeNull();
      expect(
        await database.staff.acceptInvitation(
          legacy.invitation.tokenDigest,
          passkeyOf(legacy.staff.id, "cred-leo"),
          new Date(),
          OPERATOR_CONTEXT,
        ),
      ).toBeNull();
      expect(await database.staff.useInvitation(legacy.invitation.tokenDigest, new Date())).toBeNull();
      expect(await database.staff.listPasskeys(legacy.staff.id)).toEqual([]);
    });

    it("single sign-on joins by verified email only an invited person who never signed in (their invitations end); one who has is refused: account-exists", async () => {
      // Never signed in: joined, and the link they were sent ends with the join.
      const fresh = await invite("ivy@example.com");
      const joined = await database.staff.findOrCreateForSso(
        identityOf("ivy@example.com", "sub-ivy"),
        new Date(),
        request,
      );
      expect(joined).toMatchObject({ how: "joined", staff: { id: fresh.staff.id } });
      expect(await database.staff.findInvitation(fresh.invitation.tokenDigest, new Date())).toBeNull();
      expect(
        await database.staff.acceptInvitation(
          fresh.invitation.tokenDigest,
          passkeyOf(fresh.staff.id, "cred-ivy"),
          new Date(),
          OPERATOR_CONTEXT,
        ),
      ).toBeNull();

      // Signed in with a passkey before: not joined, not tied, not changed; the sign-in is refused.
      const { staff } = await invite("ada@example.com");
      await database.staff.addPasskey(passkeyOf(staff.id, "cred-ada"), OPERATOR_CONTEXT, staff.name);
      await signIn(staff.id, staff.name);
      const before = await database.staff.getStaff(staff.id);
      expect(
        await database.staff.findOrCreateForSso(identityOf("Ada@Example.com", "sub-ada"), new Date(), request),
      ).toEqual({
        refused: "account-exists",
        staffId: staff.id,
      });
      expect(await database.staff.getStaff(staff.id)).toEqual(before);
      // Not tied by the refusal: the same identity is refused again, and created nobody.
      expect(
        await database.staff.findOrCreateForSso(identityOf("ada@example.com", "sub-ada"), new Date(), request),
      ).toEqual({ refused: "account-exists", staffId: staff.id });
      expect((await database.staff.listStaff()).map((member) => member.email).sort()).toEqual([
        "ada@example.com",
        "ivy@example.com",
      ]);
      // Holding a passkey, never signed in (a ceremony cut short): theirs all the same.
      const holder = await invite("hal@example.com");
      await database.staff.addPasskey(passkeyOf(holder.staff.id, "cred-hal"), OPERATOR_CONTEXT, holder.staff.name);
      expect(
        await database.staff.findOrCreateForSso(identityOf("hal@example.com", "sub-hal"), new Date(), request),
      ).toEqual({ refused: "account-exists", staffId: holder.staff.id });
      // An unverified email claims nothing: a new person, with the fallback address.
      expect(
        await database.staff.findOrCreateForSso(
          { ...identityOf("ada@example.com", "sub-other"), emailVerified: false },
          new Date(),
          request,
        ),
      ).toMatchObject({
        how: "created",
        staff: { email: "sso-sub-other@idp.example.com.invalid" },
      });
      // A new email: a new person.
      expect(
        await database.staff.findOrCreateForSso(identityOf("new@example.com", "sub-new"), new Date(), request),
      ).toMatchObject({
        how: "created",
        staff: { email: "new@example.com" },
      });
    });

    it("disabling with revokeKeys revokes the person's active keys in the same transaction, each with key.revoked; without it their keys stay", async () => {
      let serial = 0;
      const key = (createdByStaffId: number | null) =>
        database.access.createKey(
          {
            name: `Key ${++serial}`,
            scope: "write",
            prefix: `psk_${serial}`.padEnd(12, "x"),
            secretDigest: randomUUID(),
            expiresAt: null,
            createdBy: "Someone",
            createdByStaffId,
          },
          OPERATOR_CONTEXT,
        );
      const kept = await invite("kept@example.com");
      const gone = await invite("gone@example.com");
      const keptKey = await key(kept.staff.id);
      const [first, second, revokedBefore] = [
        await key(gone.staff.id),
        await key(gone.staff.id),
        await key(gone.staff.id),
      ];
      const byKey = await key(null);
      const revokedBeforeAt = (await database.access.revokeKey(revokedBefore.id, OPERATOR_CONTEXT))!.revokedAt;
      // A browser session started with one of the keys ends with it.
      const keySession = await signIn(gone.staff.id, first.name, "passkey", String(first.id));

      // Default: disabled, their keys untouched.
      expect(await database.staff.disableStaff(kept.staff.id, ADMIN_CONTEXT)).toMatchObject({
        staff: { id: kept.staff.id },
        revokedKeys: [],
      });
      expect(await database.access.getKey(keptKey.id)).toMatchObject({ revokedAt: null });

      const disabled = await database.staff.disableStaff(gone.staff.id, ADMIN_CONTEXT, { revokeKeys: true });
      expect(disabled?.staff.disabledAt).not.toBeNull();
      expect(disabled?.revokedKeys.map((revoked) => revoked.id).sort()).toEqual([first.id, second.id].sort());
      for (const revoked of disabled!.revokedKeys) expect(revoked.revokedAt).toBe(disabled!.staff.disabledAt);
      expect(await database.access.getKey(revokedBefore.id)).toMatchObject({ revokedAt: revokedBeforeAt });
      expect(await database.access.getKey(byKey.id)).toMatchObject({ revokedAt: null });
      expect((await database.staff.getSession(keySession.id))?.endedAt).not.toBeNull();
      const activeIds = (await database.access.activeKeys())
        .filter((active) => !active.token)
        .map((active) => active.id);
      expect(activeIds.sort()).toEqual([keptKey.id, byKey.id].sort());
      const events = await database.activity.listAuditEvents({ take: 20 });
      const revokedEvents = events.filter(
        (event) => event.action === "key.revoked" && event.at === disabled!.staff.disabledAt,
      );
      expect(revokedEvents.map((event) => [event.target.id, event.target.label, event.actor.name]).sort()).toEqual(
        [
          [first.id, first.name, "Head office"],
          [second.id, second.name, "Head office"],
        ].sort(),
      );
      expect(
        events.filter((event) => event.action === "key.revoked" && event.target.id === revokedBefore.id),
      ).toHaveLength(1);

      // Disabled already: answered unchanged, and their keys revoked when asked now.
      const again = await database.staff.disableStaff(kept.staff.id, ADMIN_CONTEXT, { revokeKeys: true });
      expect(again?.staff.disabledAt).toBe((await database.staff.getStaff(kept.staff.id))?.disabledAt);
      expect(again?.revokedKeys.map((revoked) => revoked.id)).toEqual([keptKey.id]);
      expect(await database.staff.disableStaff(kept.staff.id, ADMIN_CONTEXT, { revokeKeys: true })).toMatchObject({
        revokedKeys: [],
      });
      expect(await database.staff.disableStaff(999_999, ADMIN_CONTEXT, { revokeKeys: true })).toBeNull();
    });
  },
);
