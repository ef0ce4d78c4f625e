import {
  Account,
  AuditEvents,
  CreatedApiKey,
  InvitedStaffMember,
  SESSION_COOKIE_NAME,
  Session,
  SessionToken,
  StaffMembers,
  type StaffMember,
  type StaffRole,
} from "@petstore/contract";
import type express from "express";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { openDatabase, type Database } from "../database.js";
import { createLogger } from "../ops/logger.js";
import { expectError } from "../test/expect-error.js";
import {
  movableClock,
  sessionCookieHeader as cookieHeader,
  sessionCookieOf as cookieOf,
} from "../test/session-cookies.js";
import { startOidcProvider, TEST_ROLE_MAP, type TestOidcProvider } from "../test/oidc-provider.js";
import { SoftwareAuthenticator, type RegistrationOptionsLike } from "../test/software-authenticator.js";
import { signInApp } from "../test/sign-in-app.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { FLOW_COOKIE_NAME } from "../sso/single-sign-on.js";

const ORIGIN = "http://localhost:5173";
const asAdmin = bearer();

describe.each(TEST_PROVIDERS)("staff sign-in on %s", (provider) => {
  let t: TestApp;
  let clock = movableClock();
  const running: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((close) => close()));
  });
  async function start(env: Record<string, string> = {}) {
    clock = movableClock();
    t = await createTestApp(env, provider, undefined, clock.now);
    running.push(() => t.close());
    return t;
  }
  const api = () => request(t.app);

  async function invite(role: StaffRole = "write", email = `sam.${Math.random().toString(36).slice(2)}@example.com`) {
    const response = await api()
      .post("/admin/v1/staff")
      .set("Authorization", asAdmin)
      .send({ email, name: "Sam Rivera", role })
      .expect(201);
    return InvitedStaffMember.parse(response.body);
  }
  async function signIn(staff: StaffMember, previousCookie?: string) {
    const call = request(signInApp(t, clock.now)).post(`/sign-in/${staff.id}`);
    if (previousCookie) call.set("Cookie", cookieHeader(previousCookie));
    const response = await call.expect(201);
    return cookieOf(response);
  }
  const tokenRequest = (cookie?: string, origin: string | null = ORIGIN) => {
    const call = api().post("/admin/v1/session/token");
    if (cookie) call.set("Cookie", cookieHeader(cookie));
    if (origin) call.set("Origin", origin);
    return call;
  };
  async function token(cookie: string) {
    return SessionToken.parse((await tokenRequest(cookie).expect(201)).body).token;
  }
  const events = async () =>
    AuditEvents.parse((await api().get("/admin/v1/audit-events").set("Authorization", asAdmin).expect(200)).body);

  it("invites a person: a one-time link to ADMIN_ORIGIN/invite#token, valid 24 h, its token stored only as SHA-256", async () => {
    await start();
    const invited = await invite("read", "Sam@Example.com");
    expect(invited.staff).toMatchObject({
      email: "sam@example.com",
      name: "Sam Rivera",
      role: "read",
      createdBy: "Configured key 1",
      lastSignInAt: null,
      disabledAt: null,
    });
    expect(invited.invitationUrl).toMatch(/^http:\/\/localhost:5173\/invite#[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(invited.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const tokenInLink = invited.invitationUrl.split("#")[1]!;
    const found = await api().post("/admin/v1/invitations/lookup").send({ token: tokenInLink }).expect(200);
    expect(found.body).toEqual({
      name: "Sam Rivera",
      email: "sam@example.com",
      role: "read",
      expiresAt: invited.expiresAt,
    });
    const unknown = await api()
      .post("/admin/v1/invitations/lookup")
      .send({ token: "x".repeat(43) });
    expect(expectError(unknown, 404, "NOT_FOUND").message).toBe("This invitation has expired or was already used.");
    expect((await events())[0]).toMatchObject({
      action: "staff.invited",
      target: { type: "staff", id: invited.staff.id, label: "Sam Rivera" },
      detail: "read",
    });
    // 24 hours later the link is dead.
    clock.move(24 * 3_600_000 + 1_000);
    expectError(await api().post("/admin/v1/invitations/lookup").send({ token: tokenInLink }), 404, "NOT_FOUND");
  });

  it("the same email again, before the person signs in (a lost or expired link): invited again, name and role as sent, the earlier link dead", async () => {
    await start();
    const first = await invite("read", "sam@example.com");
    const firstToken = first.invitationUrl.split("#")[1]!;
    const inviteAgain = (name: string, role: StaffRole) =>
      api().post("/admin/v1/staff").set("Authorization", asAdmin).send({ email: "SAM@example.com", name, role });
    const second = InvitedStaffMember.parse((await inviteAgain("Sam", "write").expect(201)).body);
    expect(second.staff).toEqual({ ...first.staff, name: "Sam", role: "write" });
    expect(second.invitationUrl).not.toBe(first.invitationUrl);
    expectError(await api().post("/admin/v1/invitations/lookup").send({ token: firstToken }), 404, "NOT_FOUND");
    const secondToken = second.invitationUrl.split("#")[1]!;
    expect(
      (await api().post("/admin/v1/invitations/lookup").send({ token: secondToken }).expect(200)).body,
    ).toMatchObject({ name: "Sam", role: "write" });
    expect(
      StaffMembers.parse((await api().get("/admin/v1/staff").set("Authorization", asAdmin).expect(200)).body),
    ).toEqual([second.staff]);
    expect((await events()).slice(0, 2)).toMatchObject([
      { action: "staff.invited", target: { type: "staff", id: first.staff.id, label: "Sam" }, detail: "write" },
      { action: "staff.invited", target: { type: "staff", id: first.staff.id, label: "Sam Rivera" }, detail: "read" },
    ]);
    // Expired: invited again too, and the new link works.
    clock.move(24 * 3_600_000 + 1_000);
    const third = InvitedStaffMember.parse((await inviteAgain("Sam", "write").expect(201)).body);
    await api()
      .post("/admin/v1/invitations/lookup")
      .send({ token: third.invitationUrl.split("#")[1]! })
      .expect(200);
  });

  it("the same email again is refused once the person has signed in, or is disabled", async () => {
    await start();
    const signedIn = await invite("read", "sam@example.com");
    await signIn(signedIn.staff);
    const again = await api()
      .post("/admin/v1/staff")
      .set("Authorization", asAdmin)
      .send({ email: "sam@example.com", name: "Sam", role: "admin" });
    expect(expectError(again, 400, "VALIDATION_ERROR").message).toMatch(/a staff member has this email already/);
    const disabled = await invite("read", "kim@example.com");
    await api().post(`/admin/v1/staff/${disabled.staff.id}/disable`).set("Authorization", asAdmin).send({}).expect(200);
    expectError(
      await api()
        .post("/admin/v1/staff")
        .set("Authorization", asAdmin)
        .send({ email: "kim@example.com", name: "Kim", role: "read" }),
      400,
      "VALIDATION_ERROR",
    );
    const staff = StaffMembers.parse(
      (await api().get("/admin/v1/staff").set("Authorization", asAdmin).expect(200)).body,
    );
    expect(staff.find((member) => member.id === signedIn.staff.id)).toMatchObject({ name: "Sam Rivera", role: "read" });
  });

  it("an unknown invitation spends the address's failure budget", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    for (let i = 0; i < 2; i++)
      expectError(
        await api()
          .post("/admin/v1/invitations/lookup")
          .send({ token: "y".repeat(43) }),
        404,
        "NOT_FOUND",
      );
    expectError(
      await api()
        .post("/admin/v1/invitations/lookup")
        .send({ token: "y".repeat(43) }),
      429,
      "RATE_LIMITED",
    );
  });

  it("an unknown pst_ token is looked up after spending the address's failure budget; past it, 429 without a read; a held token still works", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    const { staff } = await invite("read");
    const cookie = await signIn(staff);
    const held = await token(cookie);
    for (let i = 0; i < 2; i++)
      expectError(
        await api()
          .get("/v1/pets")
          .set("Authorization", `Bearer pst_${"u".repeat(43)}`),
        401,
        "UNAUTHORIZED",
      );
    expectError(
      await api()
        .get("/v1/pets")
        .set("Authorization", `Bearer pst_${"u".repeat(43)}`),
      429,
      "RATE_LIMITED",
    );
    await api().get("/v1/pets").set("Authorization", `Bearer ${held}`).expect(200);
  });

  it("mints a token only for the cookie with the admin app's Origin: none or another is 403, no or an unknown session 401", async () => {
    await start();
    const { staff } = await invite("write");
    const cookie = await signIn(staff);
    expectError(await tokenRequest(cookie, null), 403, "FORBIDDEN");
    expectError(await tokenRequest(cookie, "https://evil.example"), 403, "FORBIDDEN");
    expectError(await tokenRequest(cookie, "http://localhost:5174"), 403, "FORBIDDEN");
    expectError(await tokenRequest(undefined), 401, "UNAUTHORIZED");
    expectError(await tokenRequest("z".repeat(43)), 401, "UNAUTHORIZED");
    const minted = SessionToken.parse((await tokenRequest(cookie).expect(201)).body);
    expect(minted.token).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(minted.expiresAt) - clock.now()).toBeLessThanOrEqual(600_000);
    expect(Date.parse(minted.expiresAt) - clock.now()).toBeGreaterThan(590_000);
    // The token is a bearer of the person's role, on /v1 and /admin/v1.
    const session = Session.parse(
      (await api().get("/admin/v1/session").set("Authorization", `Bearer ${minted.token}`).expect(200)).body,
    );
    expect(session).toEqual({
      keyId: null,
      staffId: staff.id,
      name: "Sam Rivera",
      scope: "write",
      expiresAt: minted.expiresAt,
    });
    await api().get("/v1/pets").set("Authorization", `Bearer ${minted.token}`).expect(200);
    expectError(await api().get("/admin/v1/keys").set("Authorization", `Bearer ${minted.token}`), 403, "FORBIDDEN");
    // A token is not a cookie: the token endpoint takes none.
    expectError(
      await api().post("/admin/v1/session/token").set("Origin", ORIGIN).set("Authorization", `Bearer ${minted.token}`),
      401,
      "UNAUTHORIZED",
    );
  });

  it("sets the cookie __Host-, HttpOnly, Secure, SameSite=Strict, Path=/; a new value at every sign-in, the old one ended", async () => {
    await start();
    const { staff } = await invite("read");
    const response = await request(signInApp(t, clock.now)).post(`/sign-in/${staff.id}`).expect(201);
    const [line = "", marker = ""] = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
    expect(line).toMatch(
      /^__Host-petstore-session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=Strict$/,
    );
    expect(line).not.toMatch(/Domain=/i);
    // Beside it, for the admin app's script: "signed in", no secret, the same lifetime.
    const maxAge = /Max-Age=(\d+)/.exec(line)![1];
    expect(marker).toBe(`petstore-signed-in=1; Path=/; Max-Age=${maxAge}; Secure; SameSite=Strict`);
    const first = cookieOf(response);
    const second = await signIn(staff, first);
    expect(second).not.toBe(first);
    expectError(await tokenRequest(first), 401, "UNAUTHORIZED");
    await tokenRequest(second).expect(201);
    const signedIn = (await events()).filter((event) => event.action === "staff.signed_in");
    expect(signedIn).toHaveLength(2);
    expect(signedIn[0]).toMatchObject({
      actor: { keyId: null, staffId: staff.id, name: "Sam Rivera" },
      detail: "passkey",
      target: { type: "staff", id: staff.id },
    });
    const listed = StaffMembers.parse(
      (await api().get("/admin/v1/staff").set("Authorization", asAdmin).expect(200)).body,
    );
    expect(listed[0]?.lastSignInAt).not.toBeNull();
  });

  it("enforces the idle and the absolute timeouts, with a clock it can move", async () => {
    await start({ SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "2" });
    const { staff } = await invite("read");
    const cookie = await signIn(staff);
    // Active every 20 minutes: never idle for 30, until the 2 hours are up.
    for (let minutes = 20; minutes < 120; minutes += 20) {
      clock.move(20 * 60_000);
      await tokenRequest(cookie).expect(201);
    }
    clock.move(20 * 60_000 + 1_000);
    expectError(await tokenRequest(cookie), 401, "UNAUTHORIZED");
    // Idle: 30 minutes without a token.
    const idle = await signIn(staff);
    clock.move(30 * 60_000 + 1_000);
    expectError(await tokenRequest(idle), 401, "UNAUTHORIZED");
  });

  it("a token expires with its 10 minutes, or its session's end, on this clock", async () => {
    await start({ SESSION_IDLE_MINUTES: "5" });
    const { staff } = await invite("read");
    const cookie = await signIn(staff);
    const minted = SessionToken.parse((await tokenRequest(cookie).expect(201)).body);
    expect(Date.parse(minted.expiresAt) - clock.now()).toBeLessThanOrEqual(5 * 60_000);
    await api().get("/v1/pets").set("Authorization", `Bearer ${minted.token}`).expect(200);
    clock.move(5 * 60_000 + 1);
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${minted.token}`), 401, "UNAUTHORIZED");
  });

  it("signs out on the server: the cookie and its tokens are refused at once", async () => {
    await start();
    const { staff } = await invite("read");
    const cookie = await signIn(staff);
    const bearerToken = await token(cookie);
    expectError(await api().post("/admin/v1/session/sign-out").set("Cookie", cookieHeader(cookie)), 403, "FORBIDDEN");
    const out = await api()
      .post("/admin/v1/session/sign-out")
      .set("Cookie", cookieHeader(cookie))
      .set("Origin", ORIGIN)
      .expect(204);
    expect(String(out.headers["set-cookie"])).toMatch(/^__Host-petstore-session=; Path=\/; Max-Age=0/);
    expect(out.headers["set-cookie"]).toContain("petstore-signed-in=; Path=/; Max-Age=0; Secure; SameSite=Strict");
    expectError(await tokenRequest(cookie), 401, "UNAUTHORIZED");
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${bearerToken}`), 401, "UNAUTHORIZED");
    expectError(
      await api().post("/admin/v1/session/sign-out").set("Cookie", cookieHeader(cookie)).set("Origin", ORIGIN),
      401,
      "UNAUTHORIZED",
    );
  });

  it("disabling a person or changing their role refuses their tokens and sessions at once", async () => {
    await start();
    const { staff } = await invite("write");
    const cookie = await signIn(staff);
    const before = await token(cookie);
    const changed = await api()
      .post(`/admin/v1/staff/${staff.id}/role`)
      .set("Authorization", asAdmin)
      .send({ role: "read" })
      .expect(200);
    expect(changed.body).toMatchObject({ id: staff.id, role: "read" });
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${before}`), 401, "UNAUTHORIZED");
    expectError(await tokenRequest(cookie), 401, "UNAUTHORIZED");
    // Signed in again: the new role.
    const again = await signIn(staff);
    const readToken = await token(again);
    expect(
      (await api().get("/admin/v1/session").set("Authorization", `Bearer ${readToken}`).expect(200)).body,
    ).toMatchObject({ scope: "read" });
    expectError(
      await api().post("/v1/pets").set("Authorization", `Bearer ${readToken}`).send({ name: "Rex", categoryId: 1 }),
      403,
      "FORBIDDEN",
    );
    const disabled = await api()
      .post(`/admin/v1/staff/${staff.id}/disable`)
      .set("Authorization", asAdmin)
      .send({})
      .expect(200);
    expect(disabled.body.disabledAt).not.toBeNull();
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${readToken}`), 401, "UNAUTHORIZED");
    expectError(await tokenRequest(again), 401, "UNAUTHORIZED");
    // Disabling again answers the same.
    expect(
      (await api().post(`/admin/v1/staff/${staff.id}/disable`).set("Authorization", asAdmin).expect(200)).body,
    ).toEqual(disabled.body);
    const actions = (await events()).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(["staff.role_changed", "staff.disabled"]));
    expectError(await api().post("/admin/v1/staff/999999/disable").set("Authorization", asAdmin), 404, "NOT_FOUND");
  });

  it("disableStaff { revokeKeys: true } revokes the keys the person made, at once, each with key.revoked; their keys listed by createdByStaffId", async () => {
    await start();
    const { staff } = await invite("admin");
    const personToken = await token(await signIn(staff));
    const made = async (name: string, auth: string) =>
      CreatedApiKey.parse(
        (await api().post("/admin/v1/keys").set("Authorization", auth).send({ name, scope: "write" }).expect(201)).body,
      );
    const tills = [await made("Till 1", `Bearer ${personToken}`), await made("Till 2", `Bearer ${personToken}`)];
    const byKey = await made("Back office", asAdmin);
    for (const key of [...tills, byKey])
      await api().get("/v1/pets").set("Authorization", `Bearer ${key.secret}`).expect(200);
    const listed = await api()
      .get(`/admin/v1/keys?createdByStaffId=${staff.id}`)
      .set("Authorization", asAdmin)
      .expect(200);
    expect((listed.body as Array<{ id: number }>).map((key) => key.id)).toEqual([tills[1]!.key.id, tills[0]!.key.id]);

    const disabled = await api()
      .post(`/admin/v1/staff/${staff.id}/disable`)
      .set("Authorization", asAdmin)
      .send({ revokeKeys: true })
      .expect(200);
    expect(disabled.body).toMatchObject({ id: staff.id, disabledAt: expect.any(String) });
    for (const key of tills)
      expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${key.secret}`), 401, "UNAUTHORIZED");
    await api().get("/v1/pets").set("Authorization", `Bearer ${byKey.secret}`).expect(200);
    const revoked = (await events()).filter((event) => event.action === "key.revoked");
    expect(revoked.map((event) => event.target.id).sort()).toEqual(tills.map((key) => key.key.id).sort());
    expect(
      revoked.every((event) => event.actor.name === "Configured key 1" && event.at === disabled.body.disabledAt),
    ).toBe(true);
    const after = await api()
      .get(`/admin/v1/keys?createdByStaffId=${staff.id}`)
      .set("Authorization", asAdmin)
      .expect(200);
    expect((after.body as Array<{ revokedAt: string | null }>).map((key) => key.revokedAt)).toEqual([
      disabled.body.disabledAt,
      disabled.body.disabledAt,
    ]);
  });

  it("disableStaff without revokeKeys (or false) leaves the person's keys working; a revokeKeys that is not a boolean is 400", async () => {
    await start();
    const { staff } = await invite("admin");
    const personToken = await token(await signIn(staff));
    const till = CreatedApiKey.parse(
      (
        await api()
          .post("/admin/v1/keys")
          .set("Authorization", `Bearer ${personToken}`)
          .send({ name: "Till", scope: "read" })
          .expect(201)
      ).body,
    );
    expectError(
      await api().post(`/admin/v1/staff/${staff.id}/disable`).set("Authorization", asAdmin).send({ revokeKeys: "yes" }),
      400,
      "VALIDATION_ERROR",
    );
    await api()
      .post(`/admin/v1/staff/${staff.id}/disable`)
      .set("Authorization", asAdmin)
      .send({ revokeKeys: false })
      .expect(200);
    await api().post(`/admin/v1/staff/${staff.id}/disable`).set("Authorization", asAdmin).expect(200);
    await api().get("/v1/pets").set("Authorization", `Bearer ${till.secret}`).expect(200);
    expect((await events()).filter((event) => event.action === "key.revoked")).toEqual([]);
  });

  it("an admin ends one session: its tokens are refused at once, the person's other session goes on", async () => {
    await start();
    const { staff } = await invite("read");
    const first = await signIn(staff);
    const second = await signIn(staff);
    const firstToken = await token(first);
    const secondToken = await token(second);
    const account = Account.parse(
      (await api().get("/admin/v1/account").set("Authorization", `Bearer ${secondToken}`).expect(200)).body,
    );
    expect(account.sessions).toHaveLength(2);
    expect(account.sessions.filter((session) => session.current)).toHaveLength(1);
    const other = account.sessions.find((session) => !session.current)!;
    await api().post(`/admin/v1/sessions/${other.id}/end`).set("Authorization", asAdmin).expect(200);
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${firstToken}`), 401, "UNAUTHORIZED");
    await api().get("/v1/pets").set("Authorization", `Bearer ${secondToken}`).expect(200);
    // Sign out everywhere: the person's own operation.
    await api()
      .post("/admin/v1/account/sign-out-everywhere")
      .set("Authorization", `Bearer ${secondToken}`)
      .send({})
      .expect(204);
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${secondToken}`), 401, "UNAUTHORIZED");
    expectError(await tokenRequest(second), 401, "UNAUTHORIZED");
  });

  it("a key starts a browser session (not a token); the session ends when the key is revoked", async () => {
    await start();
    const created = CreatedApiKey.parse(
      (
        await api()
          .post("/admin/v1/keys")
          .set("Authorization", asAdmin)
          .send({ name: "Front desk", scope: "write" })
          .expect(201)
      ).body,
    );
    const started = await api()
      .post("/admin/v1/session/start")
      .set("Authorization", `Bearer ${created.secret}`)
      .send({})
      .expect(201);
    expect(started.body).toMatchObject({
      keyId: String(created.key.id),
      staffId: null,
      name: "Front desk",
      scope: "write",
    });
    const cookie = cookieOf(started);
    const keyToken = await token(cookie);
    const session = await api().get("/admin/v1/session").set("Authorization", `Bearer ${keyToken}`).expect(200);
    expect(session.body).toMatchObject({
      keyId: String(created.key.id),
      staffId: null,
      name: "Front desk",
      scope: "write",
    });
    // A token cannot start a session, nor call a person's operation.
    expectError(
      await api().post("/admin/v1/session/start").set("Authorization", `Bearer ${keyToken}`).send({}),
      403,
      "FORBIDDEN",
    );
    expectError(await api().get("/admin/v1/account").set("Authorization", `Bearer ${keyToken}`), 403, "FORBIDDEN");
    expect((await events()).find((event) => event.action === "key.signed_in")).toMatchObject({
      actor: { keyId: String(created.key.id), staffId: null },
    });
    await api().post(`/admin/v1/keys/${created.key.id}/revoke`).set("Authorization", asAdmin).send({}).expect(200);
    expectError(await api().get("/v1/pets").set("Authorization", `Bearer ${keyToken}`), 401, "UNAUTHORIZED");
    expectError(await tokenRequest(cookie), 401, "UNAUTHORIZED");
  });

  it("a key made through a session outlives the token's 10 minutes: a person's has no limit, a key session's its key's", async () => {
    await start();
    const { staff } = await invite("admin");
    const personToken = await token(await signIn(staff));
    const inAYear = new Date(clock.now() + 365 * 24 * 3_600_000).toISOString();
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", `Bearer ${personToken}`)
      .send({ name: "Till", scope: "read", expiresAt: inAYear })
      .expect(201);
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", `Bearer ${personToken}`)
      .send({ name: "Forever", scope: "read" })
      .expect(201);

    const keyExpiresAt = new Date(clock.now() + 24 * 3_600_000).toISOString();
    const expiring = CreatedApiKey.parse(
      (
        await api()
          .post("/admin/v1/keys")
          .set("Authorization", asAdmin)
          .send({ name: "Temp admin", scope: "admin", expiresAt: keyExpiresAt })
          .expect(201)
      ).body,
    );
    const keyToken = await token(
      cookieOf(
        await api()
          .post("/admin/v1/session/start")
          .set("Authorization", `Bearer ${expiring.secret}`)
          .send({})
          .expect(201),
      ),
    );
    const withinTheKey = new Date(clock.now() + 3_600_000).toISOString();
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", `Bearer ${keyToken}`)
      .send({ name: "Hour", scope: "read", expiresAt: withinTheKey })
      .expect(201);
    const refused = await api()
      .post("/admin/v1/keys")
      .set("Authorization", `Bearer ${keyToken}`)
      .send({ name: "Year", scope: "read", expiresAt: inAYear });
    expectError(refused, 400, "VALIDATION_ERROR");
    expect(JSON.stringify(refused.body)).toContain(new Date(keyExpiresAt).toISOString());
  });

  it("a retry with the same Idempotency-Key after a token renewal replays: the person is the caller, not the token", async () => {
    await start();
    const { staff } = await invite("write");
    const cookie = await signIn(staff);
    const first = await api()
      .post("/v1/pets")
      .set("Authorization", `Bearer ${await token(cookie)}`)
      .set("Idempotency-Key", "order-1")
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    const retry = await api()
      .post("/v1/pets")
      .set("Authorization", `Bearer ${await token(cookie)}`)
      .set("Idempotency-Key", "order-1")
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first.body);
    const created = (await events()).find((event) => event.action === "pet.created");
    expect(created?.actor).toEqual({ keyId: null, staffId: staff.id, name: "Sam Rivera" });
  });

  it("a person's account: passkeys and sessions; keys are refused", async () => {
    await start();
    const { staff } = await invite("read");
    const cookie = await signIn(staff);
    const personToken = await token(cookie);
    const account = Account.parse(
      (await api().get("/admin/v1/account").set("Authorization", `Bearer ${personToken}`).expect(200)).body,
    );
    expect(account.staff.id).toBe(staff.id);
    expect(account.passkeys).toEqual([]);
    expectError(await api().get("/admin/v1/account").set("Authorization", asAdmin), 403, "FORBIDDEN");
    expectError(
      await api().delete("/admin/v1/account/passkeys/1").set("Authorization", `Bearer ${personToken}`),
      404,
      "NOT_FOUND",
    );
  });

  it("never stores, logs or records a secret: cookie, token, invitation token", async () => {
    await start();
    const invited = await invite("write");
    const cookie = await signIn(invited.staff);
    const personToken = await token(cookie);
    await api().get("/v1/pets").set("Authorization", `Bearer ${personToken}`).expect(200);
    await api()
      .get("/v1/pets")
      .set("Authorization", `Bearer pst_${"q".repeat(43)}`)
      .expect(401);
    const secrets = [cookie, personToken, personToken.slice(4), invited.invitationUrl.split("#")[1]!];
    const activity = JSON.stringify(await events());
    for (const secret of secrets) {
      expect(activity).not.toContain(secret);
      expect(t.logs.join("\n")).not.toContain(secret);
    }
    const dump = JSON.stringify(
      await Promise.all([
        t.database.staff.listStaff(),
        t.database.staff.listSessions(invited.staff.id, new Date()),
        t.database.access.activeKeys(),
      ]),
    );
    for (const secret of secrets) expect(dump).not.toContain(secret);
  });
});

describe.each(TEST_PROVIDERS)("staff sessions across two replicas on %s", (provider) => {
  let t: TestApp;
  let other: { app: express.Express; database: Database } | undefined;
  afterEach(async () => {
    await other?.database.close();
    await t.close();
  });

  it("a token minted on one works at once on the other; a disabled person is refused there within 2 s", async () => {
    t = await createTestApp({}, provider);
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
    other = {
      app: createApp({ config: t.config, logger: createLogger(t.config, { write: () => {} }), database }),
      database,
    };
    // The second replica holds its key set before the token exists.
    await request(other.app).get("/v1/pets").set("Authorization", asAdmin).expect(200);
    const invited = InvitedStaffMember.parse(
      (
        await request(t.app)
          .post("/admin/v1/staff")
          .set("Authorization", asAdmin)
          .send({ email: "kim@example.com", name: "Kim", role: "read" })
          .expect(201)
      ).body,
    );
    const cookie = cookieOf(await request(signInApp(t)).post(`/sign-in/${invited.staff.id}`).expect(201));
    const minted = SessionToken.parse(
      (
        await request(t.app)
          .post("/admin/v1/session/token")
          .set("Cookie", cookieHeader(cookie))
          .set("Origin", ORIGIN)
          .expect(201)
      ).body,
    );
    await request(other.app).get("/v1/pets").set("Authorization", `Bearer ${minted.token}`).expect(200);
    await request(t.app).post(`/admin/v1/staff/${invited.staff.id}/disable`).set("Authorization", asAdmin).expect(200);
    const deadline = Date.now() + 2_000;
    let status = 200;
    while (Date.now() < deadline && status === 200) {
      status = (await request(other.app).get("/v1/pets").set("Authorization", `Bearer ${minted.token}`)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
  });

  it("keys revoked by disabling their maker are refused on the other replica within 2 s", async () => {
    t = await createTestApp({}, provider);
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
    other = {
      app: createApp({ config: t.config, logger: createLogger(t.config, { write: () => {} }), database }),
      database,
    };
    const invited = InvitedStaffMember.parse(
      (
        await request(t.app)
          .post("/admin/v1/staff")
          .set("Authorization", asAdmin)
          .send({ email: "kim@example.com", name: "Kim", role: "admin" })
          .expect(201)
      ).body,
    );
    const cookie = cookieOf(await request(signInApp(t)).post(`/sign-in/${invited.staff.id}`).expect(201));
    const minted = SessionToken.parse(
      (
        await request(t.app)
          .post("/admin/v1/session/token")
          .set("Cookie", cookieHeader(cookie))
          .set("Origin", ORIGIN)
          .expect(201)
      ).body,
    );
    const till = CreatedApiKey.parse(
      (
        await request(t.app)
          .post("/admin/v1/keys")
          .set("Authorization", `Bearer ${minted.token}`)
          .send({ name: "Till", scope: "read" })
          .expect(201)
      ).body,
    );
    // The other replica holds the key before the disable.
    await request(other.app).get("/v1/pets").set("Authorization", `Bearer ${till.secret}`).expect(200);
    await request(t.app)
      .post(`/admin/v1/staff/${invited.staff.id}/disable`)
      .set("Authorization", asAdmin)
      .send({ revokeKeys: true })
      .expect(200);
    const disabledAt = Date.now();
    let status = 200;
    while (Date.now() < disabledAt + 2_000 && status === 200) {
      status = (await request(other.app).get("/v1/pets").set("Authorization", `Bearer ${till.secret}`)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
  });
});

describe.each(TEST_PROVIDERS)("invitations and single sign-on joining on %s", (provider) => {
  const CALLBACK = `${ORIGIN}/admin/v1/sso/callback`;
  let idp: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [CALLBACK] });
  });
  afterAll(async () => {
    await idp?.close();
  });
  afterEach(async () => {
    await t?.close();
  });
  async function start() {
    t = await createTestApp(
      {
        ADMIN_ORIGIN: ORIGIN,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_ROLE_MAP: TEST_ROLE_MAP,
        OIDC_SCOPES: "groups",
      },
      provider,
      undefined,
      undefined,
      idp.fetch,
    );
  }
  const api = () => request(t.app);
  const setCookies = (response: request.Response): string[] =>
    ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  const hasSessionCookie = (response: request.Response) =>
    setCookies(response).some((line) => line.startsWith(`${SESSION_COOKIE_NAME}=`) && !line.includes("Max-Age=0"));

  /** The whole single sign-on round trip as `email` (a test account of the provider): the callback's answer. */
  async function ssoSignIn(email: string) {
    const started = await api().get("/admin/v1/sso/start").expect(302);
    const flowLine = setCookies(started).find((line) => line.startsWith(`${FLOW_COOKIE_NAME}=`))!;
    const flow = flowLine.slice(FLOW_COOKIE_NAME.length + 1).split(";")[0]!;
    const back = await idp.signIn(new URL(started.headers["location"] as string), email);
    return api().get(`${back.pathname}${back.search}`).set("Cookie", `${FLOW_COOKIE_NAME}=${flow}`).expect(302);
  }
  async function invite(email: string, name: string, role: StaffRole) {
    const invited = InvitedStaffMember.parse(
      (await api().post("/admin/v1/staff").set("Authorization", asAdmin).send({ email, name, role }).expect(201)).body,
    );
    return { ...invited, token: invited.invitationUrl.split("#")[1]! };
  }
  const registrationOptions = (invitationToken: string) =>
    api().post("/admin/v1/passkeys/registration/options").send({ invitationToken });
  const acceptInvitation = (invitationToken: string, response: unknown) =>
    api().post("/admin/v1/passkeys/registration").send({ invitationToken, response });
  const staffList = async () =>
    StaffMembers.parse((await api().get("/admin/v1/staff").set("Authorization", asAdmin).expect(200)).body);

  it("invite, sign in with single sign-on as the invited email, then the same link registers a passkey: refused, the link is dead", async () => {
    await start();
    const invited = await invite("alice@example.test", "Alice", "read");
    // The attacker asks for the ceremony's options while the link is still open, then the person signs in with single sign-on.
    const early = (await registrationOptions(invited.token).expect(200)).body as RegistrationOptionsLike;
    const joined = await ssoSignIn("alice@example.test");
    expect(joined.headers["location"]).toBe(`${ORIGIN}/`);
    expect(hasSessionCookie(joined)).toBe(true);
    // The link is used up: its page, new options and the passkey made from the early options are all refused.
    expectError(await api().post("/admin/v1/invitations/lookup").send({ token: invited.token }), 404, "NOT_FOUND");
    expectError(await registrationOptions(invited.token), 404, "NOT_FOUND");
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const accepted = await acceptInvitation(invited.token, authenticator.register(early));
    expectError(accepted, 404, "NOT_FOUND");
    expect(hasSessionCookie(accepted)).toBe(false);
    const events = AuditEvents.parse(
      (await api().get("/admin/v1/audit-events").set("Authorization", asAdmin).expect(200)).body,
    );
    expect(events.filter((event) => event.action === "passkey.added")).toEqual([]);
    // No passkey sign-in either: the credential was never stored.
    const signInOptions = (await api().post("/admin/v1/passkeys/authentication/options").send({}).expect(200)).body;
    expectError(
      await api()
        .post("/admin/v1/passkeys/authentication")
        .send({ response: authenticator.authenticate(signInOptions) }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("an admin who has signed in with a passkey, then a single sign-on identity with the same verified email: refused, account-exists", async () => {
    await start();
    const invited = await invite("bob@example.test", "Bob the Admin", "admin");
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const options = (await registrationOptions(invited.token).expect(200)).body as RegistrationOptionsLike;
    const onboarded = await acceptInvitation(invited.token, authenticator.register(options)).expect(201);
    const adminCookie = cookieOf(onboarded);
    const before = (await staffList()).find((member) => member.id === invited.staff.id)!;
    expect(before).toMatchObject({ role: "admin", lastSignInAt: expect.any(String) });

    const refused = await ssoSignIn("bob@example.test");
    expect(refused.headers["location"]).toBe(`${ORIGIN}/sign-in?error=account-exists`);
    expect(hasSessionCookie(refused)).toBe(false);
    // Nothing of the admin changed (the provider maps Bob to write), and nobody was made.
    expect(await staffList()).toEqual([before]);
    // Refused again: the refusal tied nothing.
    expect((await ssoSignIn("bob@example.test")).headers["location"]).toBe(`${ORIGIN}/sign-in?error=account-exists`);
    // The admin's own session goes on, as admin.
    const adminToken = SessionToken.parse(
      (
        await api()
          .post("/admin/v1/session/token")
          .set("Cookie", cookieHeader(adminCookie))
          .set("Origin", ORIGIN)
          .expect(201)
      ).body,
    );
    expect(
      Session.parse(
        (await api().get("/admin/v1/session").set("Authorization", `Bearer ${adminToken.token}`).expect(200)).body,
      ),
    ).toMatchObject({
      staffId: invited.staff.id,
      scope: "admin",
    });
    const events = AuditEvents.parse(
      (await api().get("/admin/v1/audit-events").set("Authorization", asAdmin).expect(200)).body,
    );
    expect(events.filter((event) => event.action === "staff.signed_in").map((event) => event.detail)).toEqual([
      "passkey",
    ]);
  });
});
