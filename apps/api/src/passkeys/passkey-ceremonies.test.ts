import {
  Account,
  AuditEvents,
  InvitedStaffMember,
  Passkey,
  SESSION_COOKIE_NAME,
  Session,
  SessionToken,
  type StaffRole,
} from "@petstore/contract";
import { createHash } from "node:crypto";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { abuseLimitsFromConfig } from "../access/rate-limit.js";
import { createApp } from "../app.js";
import { openDatabase } from "../database.js";
import { createLogger } from "../ops/logger.js";
import { expectError } from "../test/expect-error.js";
import {
  SoftwareAuthenticator,
  FLAGS,
  type RegistrationOptionsLike,
  type AuthenticationOptionsLike,
} from "../test/software-authenticator.js";
import { movableClock, sessionCookieOf as cookieOf } from "../test/session-cookies.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { CHALLENGE_TTL_MS } from "./passkeys-router.js";

const ORIGIN = "http://localhost:5173"; // the development ADMIN_ORIGIN, which NODE_ENV=test keeps
const asAdmin = bearer();

const hasSessionCookie = (response: request.Response) =>
  ([] as string[])
    .concat(response.headers["set-cookie"] ?? [])
    .some((line) => line.startsWith(`${SESSION_COOKIE_NAME}=`) && !line.includes("Max-Age=0"));

describe.each(TEST_PROVIDERS)("passkey ceremonies on %s", (provider) => {
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

  async function invite(role: StaffRole = "write", name = "Robin Park") {
    const email = `robin.${Math.random().toString(36).slice(2)}@example.com`;
    const response = await api()
      .post("/admin/v1/staff")
      .set("Authorization", asAdmin)
      .send({ email, name, role })
      .expect(201);
    const invited = InvitedStaffMember.parse(response.body);
    return { ...invited, token: invited.invitationUrl.split("#")[1]! };
  }
  const invitationOptions = async (token: string) =>
    (await api().post("/admin/v1/passkeys/registration/options").send({ invitationToken: token }).expect(200))
      .body as RegistrationOptionsLike;
  const accept = (token: string, response: unknown, name?: string) =>
    api()
      .post("/admin/v1/passkeys/registration")
      .send({ invitationToken: token, response, ...(name ? { name } : {}) });
  const signInOptions = async () =>
    (await api().post("/admin/v1/passkeys/authentication/options").send({}).expect(200))
      .body as AuthenticationOptionsLike;
  const signIn = (response: unknown) => api().post("/admin/v1/passkeys/authentication").send({ response });
  const tokenOf = async (cookie: string) =>
    SessionToken.parse(
      (
        await api()
          .post("/admin/v1/session/token")
          .set("Cookie", `${SESSION_COOKIE_NAME}=${cookie}`)
          .set("Origin", ORIGIN)
          .expect(201)
      ).body,
    ).token;
  const events = async () =>
    AuditEvents.parse((await api().get("/admin/v1/audit-events").set("Authorization", asAdmin).expect(200)).body);

  /** An invited person who created a passkey on `authenticator`: their session cookie. */
  async function onboard(authenticator: SoftwareAuthenticator, role: StaffRole = "write", name = "Robin Park") {
    const invited = await invite(role, name);
    const response = await accept(invited.token, authenticator.register(await invitationOptions(invited.token))).expect(
      201,
    );
    return { invited, cookie: cookieOf(response), session: Session.parse(response.body) };
  }

  it("an invitation: options for a discoverable, user-verified passkey of ADMIN_ORIGIN's host; creating it uses the invitation up and signs the person in", async () => {
    await start();
    const invited = await invite("write", "Robin Park");
    const options = (
      await api().post("/admin/v1/passkeys/registration/options").send({ invitationToken: invited.token }).expect(200)
    ).body;
    expect(options).toMatchObject({
      rp: { id: "localhost" },
      user: { name: invited.staff.email, displayName: "Robin Park" },
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const response = await accept(invited.token, authenticator.register(options))
      .set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0")
      .expect(201);
    expect(Session.parse(response.body)).toMatchObject({
      keyId: null,
      staffId: invited.staff.id,
      name: "Robin Park",
      scope: "write",
    });
    const cookie = cookieOf(response);

    // Signed in: a token of their role, and their passkey named after the browser it was made in.
    const token = await tokenOf(cookie);
    const account = Account.parse(
      (await api().get("/admin/v1/account").set("Authorization", `Bearer ${token}`).expect(200)).body,
    );
    expect(account.passkeys.map((p) => p.name)).toEqual(["Chrome on Linux"]);
    expect(account.staff.lastSignInAt).not.toBeNull();

    // The invitation is used up: neither its page nor a second passkey from it.
    expectError(await api().post("/admin/v1/invitations/lookup").send({ token: invited.token }), 404, "NOT_FOUND");
    expectError(
      await api().post("/admin/v1/passkeys/registration/options").send({ invitationToken: invited.token }),
      404,
      "NOT_FOUND",
    );

    const logged = (await events()).filter(
      (e) => e.target?.id === invited.staff.id && e.actor.staffId === invited.staff.id,
    );
    expect(logged.map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ["passkey.added", null],
        ["staff.signed_in", "passkey"],
      ]),
    );
  });

  it("signs in with a passkey without an email typed: no allowCredentials; a new session (and a new cookie) every time", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { invited, cookie: first } = await onboard(authenticator, "admin", "Ada Lovelace");
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await signIn(authenticator.authenticate(options)).expect(200);
    expect(Session.parse(response.body)).toMatchObject({
      staffId: invited.staff.id,
      name: "Ada Lovelace",
      scope: "admin",
    });
    const second = cookieOf(response);
    expect(second).not.toBe(first);
    await tokenOf(second);
    const account = Account.parse(
      (
        await api()
          .get("/admin/v1/account")
          .set("Authorization", `Bearer ${await tokenOf(second)}`)
          .expect(200)
      ).body,
    );
    expect(account.passkeys[0]!.lastUsedAt).not.toBeNull();
    const signedIn = (await events()).filter(
      (e) => e.action === "staff.signed_in" && e.target?.id === invited.staff.id,
    );
    expect(signedIn).toHaveLength(2);
  });

  it("a challenge is one-time: a replayed registration or assertion is refused", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN, { counting: false }); // a synced passkey: its counter stays 0
    const invited = await invite();
    const registration = authenticator.register(await invitationOptions(invited.token));
    await accept(invited.token, registration).expect(201);
    expect(hasSessionCookie(await accept(invited.token, registration))).toBe(false);
    expectError(await accept(invited.token, registration), 400, "VALIDATION_ERROR");

    const assertion = authenticator.authenticate(await signInOptions());
    await signIn(assertion).expect(200);
    const replayed = await signIn(assertion);
    expect(expectError(replayed, 401, "UNAUTHORIZED").message).toMatch(/expired or was already used/);
    expect(hasSessionCookie(replayed)).toBe(false);
  });

  it("a ceremony begun on one API process finishes on another, once", async () => {
    await start();
    // A second process on the same database: its own connection (pool), its own app.
    const database = await openDatabase({
      url: t.config.databaseUrl,
      poolSize: t.config.databasePoolSize,
      sqliteBusyTimeoutMs: t.config.sqliteBusyTimeoutMs,
    });
    try {
      const logger = createLogger(t.config, { write: () => undefined });
      const other = createApp({
        config: t.config,
        logger,
        database,
        abuseLimits: abuseLimitsFromConfig(t.config, logger),
      });
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const invited = await invite();
      const registration = authenticator.register(await invitationOptions(invited.token));
      await request(other)
        .post("/admin/v1/passkeys/registration")
        .send({ invitationToken: invited.token, response: registration })
        .expect(201);
      const options = (await request(other).post("/admin/v1/passkeys/authentication/options").send({}).expect(200))
        .body as AuthenticationOptionsLike;
      const assertion = authenticator.authenticate(options);
      await signIn(assertion).expect(200);
      expectError(
        await request(other).post("/admin/v1/passkeys/authentication").send({ response: assertion }),
        401,
        "UNAUTHORIZED",
      );
    } finally {
      await database.close();
    }
  });

  it("a challenge expires: 5 minutes after its options", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await onboard(authenticator);
    const options = await signInOptions();
    clock.move(CHALLENGE_TTL_MS + 1);
    expectError(await signIn(authenticator.authenticate(options)), 401, "UNAUTHORIZED");
  });

  it("a challenge is spent only for what it was handed out for", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await onboard(authenticator);
    const other = await invite("read", "Kim Lee");
    // A sign-in challenge answered as a registration, and an invitation's challenge used for another invitation.
    const signInChallenge = (await signInOptions()).challenge;
    const fromSignIn = new SoftwareAuthenticator(ORIGIN).register({
      ...(await invitationOptions(other.token)),
      challenge: signInChallenge,
    });
    expectError(await accept(other.token, fromSignIn), 400, "VALIDATION_ERROR");
    const third = await invite("read", "Lee Kim");
    const crossed = new SoftwareAuthenticator(ORIGIN).register(await invitationOptions(third.token));
    expectError(await accept(other.token, crossed), 400, "VALIDATION_ERROR");
  });

  it("refuses a wrong origin or relying party, and an answer without user verification", async () => {
    await start();
    const invited = await invite();
    const wrong = [
      [{ origin: "http://localhost.evil.test" }, /origin/i],
      [{ rpId: "evil.test" }, /RP ID/i],
      [{ flags: FLAGS.UP | FLAGS.AT }, /user verification/i],
    ] as const;
    for (const [overrides, reason] of wrong) {
      const refused = await accept(
        invited.token,
        new SoftwareAuthenticator(ORIGIN).register(await invitationOptions(invited.token), overrides),
      );
      expect(expectError(refused, 400, "VALIDATION_ERROR").message).toMatch(reason);
      expect(hasSessionCookie(refused)).toBe(false);
    }
    // None of them used the invitation up.
    await api().post("/admin/v1/invitations/lookup").send({ token: invited.token }).expect(200);

    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await onboard(authenticator);
    for (const [overrides, reason] of [
      [{ origin: "http://localhost:9999" }, /origin/i],
      [{ rpId: "example.com" }, /RP ID/i],
      [{ flags: FLAGS.UP }, /user verification/i],
    ] as const) {
      const refused = await signIn(authenticator.authenticate(await signInOptions(), overrides));
      expect(expectError(refused, 401, "UNAUTHORIZED").message).toMatch(reason);
      expect(hasSessionCookie(refused)).toBe(false);
    }
    await signIn(authenticator.authenticate(await signInOptions())).expect(200);
  });

  it("an invitation's passkey is stored and the invitation used together, or neither", async () => {
    await start();
    const robin = await invite("write", "Robin Park");
    const kim = await invite("read", "Kim Lee");
    const digest = createHash("sha256").update(robin.token).digest("hex");
    const passkey = { credentialId: "Y3JlZA", publicKey: "cGs", counter: 0, transports: ["internal"], name: "Phone" };
    const audit = {
      actor: { keyId: null, staffId: kim.staff.id, name: "Kim Lee" },
      requestId: null,
      clientAddress: null,
    };
    // Robin's invitation with Kim's passkey: nothing changes.
    expect(
      await t.database.staff.acceptInvitation(digest, { ...passkey, staffId: kim.staff.id }, new Date(), audit),
    ).toBeNull();
    expect(await t.database.staff.findInvitation(digest, new Date())).not.toBeNull();
    expect(await t.database.staff.findPasskey("Y3JlZA")).toBeNull();
    // Robin's, once.
    const accepted = await t.database.staff.acceptInvitation(
      digest,
      { ...passkey, staffId: robin.staff.id },
      new Date(),
      audit,
    );
    expect(accepted).toMatchObject({ id: robin.staff.id });
    expect(await t.database.staff.findPasskey("Y3JlZA")).toMatchObject({ staffId: robin.staff.id, name: "Phone" });
    expect(
      await t.database.staff.acceptInvitation(
        digest,
        { ...passkey, credentialId: "b3RoZXI", staffId: robin.staff.id },
        new Date(),
        audit,
      ),
    ).toBeNull();
    expect(await t.database.staff.passkeyCredentials(robin.staff.id)).toEqual([
      { credentialId: "Y3JlZA", transports: ["internal"] },
    ]);
  });

  it("refuses a signature counter that goes backwards (a cloned authenticator)", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await onboard(authenticator);
    await signIn(authenticator.authenticate(await signInOptions(), { counter: 5 })).expect(200);
    for (const counter of [5, 3]) {
      const refused = await signIn(authenticator.authenticate(await signInOptions(), { counter }));
      expect(expectError(refused, 401, "UNAUTHORIZED").message).toMatch(/counter went backwards/);
    }
    await signIn(authenticator.authenticate(await signInOptions(), { counter: 6 })).expect(200);
  });

  it("the counter moves only forward in the database too: of two sign-ins with the same counter, one records it", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { invited } = await onboard(authenticator);
    const [credential] = await t.database.staff.passkeyCredentials(invited.staff.id);
    const passkey = (await t.database.staff.findPasskey(credential!.credentialId))!;
    expect(passkey.counter).toBe(0);
    expect(await t.database.staff.recordPasskeyUse(passkey.id, 0, new Date())).toBe(true); // a synced passkey: always 0
    expect(await t.database.staff.recordPasskeyUse(passkey.id, 7, new Date())).toBe(true);
    expect(await t.database.staff.recordPasskeyUse(passkey.id, 7, new Date())).toBe(false);
    expect(await t.database.staff.recordPasskeyUse(passkey.id, 3, new Date())).toBe(false);
    expect(await t.database.staff.recordPasskeyUse(passkey.id, 0, new Date())).toBe(false);
    expect((await t.database.staff.findPasskey(credential!.credentialId))!.counter).toBe(7);
  });

  it("refuses a disabled person, and a passkey nobody holds", async () => {
    await start();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { invited } = await onboard(authenticator);
    await api().post(`/admin/v1/staff/${invited.staff.id}/disable`).set("Authorization", asAdmin).send({}).expect(200);
    const refused = await signIn(authenticator.authenticate(await signInOptions()));
    expect(expectError(refused, 401, "UNAUTHORIZED").message).toBe("This account is disabled.");
    expect(hasSessionCookie(refused)).toBe(false);

    // An invitation whose person is disabled between its options and its answer: nothing is created.
    const later = await invite("read", "Lee Kim");
    const registration = new SoftwareAuthenticator(ORIGIN).register(await invitationOptions(later.token));
    await api().post(`/admin/v1/staff/${later.staff.id}/disable`).set("Authorization", asAdmin).send({}).expect(200);
    const refusedInvitation = await accept(later.token, registration);
    expect(expectError(refusedInvitation, 404, "NOT_FOUND").message).toBe(
      "This invitation has expired or was already used.",
    );
    expect(hasSessionCookie(refusedInvitation)).toBe(false);
    expect(await t.database.staff.passkeyCredentials(later.staff.id)).toEqual([]);

    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.register({
      challenge: "x",
      rp: { id: "localhost", name: "x" },
      user: { id: "eA", name: "x", displayName: "x" },
    });
    expectError(await signIn(stranger.authenticate(await signInOptions())), 401, "UNAUTHORIZED");
  });

  it("without ADMIN_ORIGIN (production only) every passkey operation answers 404: passkeys are off", async () => {
    await start({ NODE_ENV: "production", PUBLIC_URL_PRODUCTION: "https://api.petstore.test/v1" });
    expect(t.config.adminOrigin).toBeUndefined();
    for (const [path, body] of [
      ["/admin/v1/passkeys/authentication/options", {}],
      ["/admin/v1/passkeys/authentication", { response: {} }],
      ["/admin/v1/passkeys/registration/options", { invitationToken: "z".repeat(43) }],
      ["/admin/v1/passkeys/registration", { invitationToken: "z".repeat(43), response: {} }],
    ] as const) {
      expect(expectError(await api().post(path).send(body), 404, "NOT_FOUND").message).toMatch(/Passkeys are off/);
    }
  });

  it("failed sign-ins spend the address's AUTH_FAILURES_PER_MIN budget", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const assertion = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", authenticatorData: "", signature: "" },
      clientExtensionResults: {},
    };
    expectError(await signIn(assertion), 401, "UNAUTHORIZED");
    expectError(await signIn(assertion), 401, "UNAUTHORIZED");
    const limited = await signIn(assertion);
    expectError(limited, 429, "RATE_LIMITED");
    expect(limited.headers["retry-after"]).toBeDefined();
    // An unknown invitation spends it too.
    expectError(
      await api()
        .post("/admin/v1/passkeys/registration/options")
        .send({ invitationToken: "y".repeat(43) }),
      429,
      "RATE_LIMITED",
    );
    void authenticator;
  });

  it("sign-ins started spend the address's own budget (AUTH_FAILURES_PER_MIN a minute): past it a 429, before a challenge is stored", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    const options = () => api().post("/admin/v1/passkeys/authentication/options").send({});
    const first = await options().expect(200);
    expect(first.headers["ratelimit-policy"]).toBe('"sign-in-starts";q=2;w=60');
    expect(first.headers["ratelimit"]).toMatch(/^"sign-in-starts";r=1;t=\d+$/);
    const second = await options().expect(200);
    expect(second.headers["ratelimit"]).toMatch(/^"sign-in-starts";r=0;t=\d+$/);
    const limited = await options();
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-policy"]).toBe('"sign-in-starts";q=2;w=60');
    expect(limited.body.message).toMatch(/Too many passkey sign-ins started from this address/);
    // A budget of its own: a failed sign-in from the same address is still the 401, not a 429.
    const assertion = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", authenticatorData: "", signature: "" },
      clientExtensionResults: {},
    };
    expectError(await signIn(assertion), 401, "UNAUTHORIZED");
  });

  it("a sign-in started within the budget still completes: the started ceremonies are not refused afterwards", async () => {
    // 2: the invitation's options spend one start of the address too.
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    const phone = new SoftwareAuthenticator(ORIGIN);
    const invited = await invite();
    await accept(invited.token, phone.register(await invitationOptions(invited.token))).expect(201);
    const started = await signInOptions();
    expectError(await api().post("/admin/v1/passkeys/authentication/options").send({}), 429, "RATE_LIMITED");
    const signedIn = await signIn(phone.authenticate(started)).expect(200);
    expect(hasSessionCookie(signedIn)).toBe(true);
  });

  it("an invitation's passkey options spend the address's sign-in starts budget: past it a 429, before a challenge is stored", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    const invited = await invite();
    let saved = 0;
    const save = t.database.passkeyChallenges.save.bind(t.database.passkeyChallenges);
    t.database.passkeyChallenges.save = (challenge) => {
      saved += 1;
      return save(challenge);
    };
    const options = () =>
      api().post("/admin/v1/passkeys/registration/options").send({ invitationToken: invited.token });
    const handedOut: RegistrationOptionsLike[] = [];
    for (const left of [1, 0]) {
      const answer = await options().expect(200);
      expect(answer.headers["ratelimit-policy"]).toBe('"sign-in-starts";q=2;w=60');
      expect(answer.headers["ratelimit"]).toMatch(new RegExp(`^"sign-in-starts";r=${left};t=\\d+$`));
      handedOut.push(answer.body as RegistrationOptionsLike);
    }
    expect(saved).toBe(2);
    const limited = await options();
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-policy"]).toBe('"sign-in-starts";q=2;w=60');
    expect(saved).toBe(2);
    // One budget with the passkey sign-ins started from the address.
    expectError(await api().post("/admin/v1/passkeys/authentication/options").send({}), 429, "RATE_LIMITED");
    // A ceremony started within the budget still completes.
    const phone = new SoftwareAuthenticator(ORIGIN);
    await accept(invited.token, phone.register(handedOut[1]!)).expect(201);
  });

  it("a signed-in person adds a passkey (their others excluded), names it, and may remove any but the last", async () => {
    await start();
    const phone = new SoftwareAuthenticator(ORIGIN);
    const { cookie } = await onboard(phone);
    const token = await tokenOf(cookie);
    const asPerson = `Bearer ${token}`;
    const options = (
      await api()
        .post("/admin/v1/account/passkeys/registration/options")
        .set("Authorization", asPerson)
        .send({})
        .expect(200)
    ).body;
    expect(options.excludeCredentials).toHaveLength(1);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const laptop = new SoftwareAuthenticator(ORIGIN);
    const added = await api()
      .post("/admin/v1/account/passkeys/registration")
      .set("Authorization", asPerson)
      .send({ response: laptop.register(options), name: "Work laptop" })
      .expect(201);
    const passkey = Passkey.parse(added.body);
    expect(passkey.name).toBe("Work laptop");

    // The added one signs in.
    await signIn(laptop.authenticate(await signInOptions())).expect(200);

    // A key cannot add one (a person's operation).
    expectError(
      await api().post("/admin/v1/account/passkeys/registration/options").set("Authorization", asAdmin).send({}),
      403,
      "FORBIDDEN",
    );
    // An options' challenge is the person's: another answer to it, replayed, is refused.
    const again = await api()
      .post("/admin/v1/account/passkeys/registration")
      .set("Authorization", asPerson)
      .send({ response: laptop.register(options) });
    expectError(again, 400, "VALIDATION_ERROR");

    // The person renames it.
    const renamed = await api()
      .patch(`/admin/v1/account/passkeys/${passkey.id}`)
      .set("Authorization", asPerson)
      .send({ name: "Desk laptop" })
      .expect(200);
    expect(Passkey.parse(renamed.body).name).toBe("Desk laptop");

    const account = Account.parse(
      (await api().get("/admin/v1/account").set("Authorization", asPerson).expect(200)).body,
    );
    expect(account.passkeys.map((p) => p.name)).toEqual(["Passkey", "Desk laptop"]);
    await api().delete(`/admin/v1/account/passkeys/${passkey.id}`).set("Authorization", asPerson).expect(204);
    const last = account.passkeys.find((p) => p.id !== passkey.id)!;
    expectError(
      await api().delete(`/admin/v1/account/passkeys/${last.id}`).set("Authorization", asPerson),
      400,
      "VALIDATION_ERROR",
    );
    // The removed one no longer signs in.
    expectError(await signIn(laptop.authenticate(await signInOptions())), 401, "UNAUTHORIZED");
  });
});
