import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPERATOR_CONTEXT } from "../activity/audit-event.js";
import { openDatabase, type Database } from "../database.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test/test-app.js";
import { newInvitation } from "./staff-router.js";

describe.each(TEST_PROVIDERS)("the staff repository on %s (for the passkey and single sign-on ceremonies)", (provider) => {
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
    const staff = await database.staff.inviteStaff({ email, name: "Sam", role: "write", createdBy: null }, invitation, OPERATOR_CONTEXT);
    if (staff === "email-taken") throw new Error("taken");
    return { staff, invitation };
  }

  it("an invitation is used once, never after it expires, never for a disabled person", async () => {
    const { staff, invitation } = await invite();
    expect(await database.staff.findInvitation(invitation.tokenDigest, new Date())).toMatchObject({ staff: { id: staff.id } });
    expect(await database.staff.useInvitation(invitation.tokenDigest, new Date())).toMatchObject({ id: staff.id });
    expect(await database.staff.useInvitation(invitation.tokenDigest, new Date())).toBeNull();
    expect(await database.staff.findInvitation(invitation.tokenDigest, new Date())).toBeNull();
    const late = await invite("late@example.com");
    expect(await database.staff.useInvitation(late.invitation.tokenDigest, new Date(late.invitation.expiresAt.getTime() + 1))).toBeNull();
    const gone = await invite("gone@example.com");
    await database.staff.disableStaff(gone.staff.id, OPERATOR_CONTEXT);
    expect(await database.staff.findInvitation(gone.invitation.tokenDigest, new Date())).toBeNull();
    expect(await database.staff.useInvitation(gone.invitation.tokenDigest, new Date())).toBeNull();
  });

  it("an email invited again: renewed while the person never signed in and holds no passkey, the earlier invitation ended", async () => {
    const first = await invite();
    const again = newInvitation(Date.now());
    const renewed = await database.staff.inviteStaff({ email: "sam@example.com", name: "Sam Again", role: "read", createdBy: null }, again, OPERATOR_CONTEXT);
    expect(renewed).toEqual({ ...first.staff, name: "Sam Again", role: "read" });
    expect(await database.staff.findInvitation(first.invitation.tokenDigest, new Date())).toBeNull();
    expect(await database.staff.findInvitation(again.tokenDigest, new Date())).toMatchObject({ staff: { id: first.staff.id } });
    // A passkey (stored, though no session began): the email is theirs for good.
    await database.staff.addPasskey(
      { staffId: first.staff.id, credentialId: "cred-renew", publicKey: "pk", counter: 0, transports: [], name: "Laptop" },
      OPERATOR_CONTEXT,
      "Sam Again",
    );
    expect(await database.staff.inviteStaff({ email: "sam@example.com", name: "Sam", role: "admin", createdBy: null }, newInvitation(Date.now()), OPERATOR_CONTEXT)).toBe(
      "email-taken",
    );
    expect(await database.staff.findInvitation(again.tokenDigest, new Date())).toMatchObject({ staff: { role: "read" } });
  });

  it("passkeys: added (passkey.added), found by credential id, counter recorded, renamed, the last one kept", async () => {
    const { staff } = await invite();
    const first = await database.staff.addPasskey(
      { staffId: staff.id, credentialId: "cred-1", publicKey: "pk-1", counter: 0, transports: ["internal", "hybrid"], name: "Laptop" },
      OPERATOR_CONTEXT,
      staff.name,
    );
    expect(await database.staff.findPasskey("cred-1")).toMatchObject({ id: first.id, staffId: staff.id, transports: ["internal", "hybrid"], counter: 0 });
    await database.staff.recordPasskeyUse(first.id, 7, new Date());
    expect(await database.staff.findPasskey("cred-1")).toMatchObject({ counter: 7, lastUsedAt: expect.any(Date) });
    expect(await database.staff.renamePasskey(staff.id, first.id, "Work laptop")).toMatchObject({ name: "Work laptop" });
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
    expect(stranger).toMatchObject({ how: "created", roleChanged: false, staff: { email: "sso-sub-1@idp.example.com.invalid" } });
    expect(stranger.staff.id).not.toBe(staff.id);
    // Verified, another subject: joins the invited person, with the provider's role.
    const joined = await database.staff.findOrCreateForSso({ ...identity, subject: "sub-2", emailVerified: true, role: "admin" }, new Date(), request);
    expect(joined).toMatchObject({ how: "joined", roleChanged: true, staff: { id: staff.id, role: "admin" } });
    // Later sign-ins: found by issuer and sub, the role as the provider says now.
    expect(await database.staff.findOrCreateForSso({ ...identity, subject: "sub-2", email: "other@example.com", role: "write" }, new Date(), request)).toMatchObject({
      how: "tied",
      roleChanged: true,
      staff: { id: staff.id, role: "write" },
    });
    // Tied now: the same verified email from another identity joins nobody.
    const other = await database.staff.findOrCreateForSso(
      { ...identity, subject: "sub-4", emailVerified: true, fallbackEmail: "sso-sub-4@idp.example.com.invalid" },
      new Date(),
      request,
    );
    expect(other).toMatchObject({ how: "created", staff: { email: "sso-sub-4@idp.example.com.invalid" } });
    const fresh = await database.staff.findOrCreateForSso({ ...identity, subject: "sub-3", email: "new@example.com" }, new Date(), request);
    expect(fresh).toMatchObject({ how: "created", staff: { email: "new@example.com", name: "Kim", role: "read", createdBy: null } });
    // Each change of role is recorded, by the person.
    const changes = (await database.activity.listAuditEvents({ take: 20 })).filter((event) => event.action === "staff.role_changed");
    expect(changes.map((event) => [event.detail, event.actor.staffId])).toEqual([
      ["write", staff.id],
      ["admin", staff.id],
    ]);
    // Disabled: answered as they are, nothing changed.
    await database.staff.disableStaff(staff.id, OPERATOR_CONTEXT);
    expect(await database.staff.findOrCreateForSso({ ...identity, subject: "sub-2", role: "read" }, new Date(), request)).toMatchObject({
      how: "tied",
      roleChanged: false,
      staff: { id: staff.id, role: "write" },
    });
  });
});
