import {
  AuditEvents,
  InvitedStaffMember,
  SESSION_COOKIE_NAME,
  Session,
  SessionToken,
  SignInOptions,
  StaffMembers,
  type StaffRole,
} from "@petstore/contract";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { createLogger } from "../ops/logger.js";
import { FLOW_COOKIE_NAME } from "./single-sign-on.js";
import { expectError } from "../test/expect-error.js";
import { startOidcProvider, TEST_ROLE_MAP, type TestOidcProvider } from "../test/oidc-provider.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { signInErrorOf } from "./sso-router.js";
import { fallbackEmail, storableName } from "./sso-identity.js";

// Single sign-on wired to staff records and sessions, against a real OpenID provider (oidc-provider on
// https with a throwaway certificate authority; the app reaches it through the provider's trusting fetch).
// The browser's part is played here: follow /sso/start to the provider, log in there, bring the
// callback URL back with the flow cookie, as a browser would.

const ORIGIN = "http://localhost:5173";
const CALLBACK = `${ORIGIN}/admin/v1/sso/callback`;
const asAdmin = bearer();

let idp: TestOidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [CALLBACK] });
});
afterAll(async () => {
  await idp?.close();
});

const ssoEnv = (extra: Record<string, string> = {}) => ({
  ADMIN_ORIGIN: ORIGIN,
  OIDC_ISSUER: idp.issuer,
  OIDC_CLIENT_ID: idp.clientId,
  OIDC_CLIENT_SECRET: idp.clientSecret,
  OIDC_ROLE_MAP: TEST_ROLE_MAP,
  OIDC_SCOPES: "groups",
  OIDC_DISPLAY_NAME: "Test Workspace",
  ...extra,
});

const setCookies = (response: request.Response): string[] =>
  ([] as string[]).concat(response.headers["set-cookie"] ?? []);
function cookieValue(response: request.Response, name: string): string | undefined {
  const line = setCookies(response).find((candidate) => candidate.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(";")[0];
}

describe("single sign-on's refusal codes", () => {
  it("tells a cancel apart; every other refusal has its code", () => {
    expect(
      signInErrorOf({
        reason: "provider-error",
        detail: "the provider answered access_denied: The person cancelled the sign-in.",
      }),
    ).toBe("cancelled");
    expect(signInErrorOf({ reason: "provider-error", detail: "the provider answered server_error" })).toBe("failed");
    expect(signInErrorOf({ reason: "state-mismatch", detail: "" })).toBe("failed");
    expect(signInErrorOf({ reason: "flow-missing", detail: "" })).toBe("expired");
    expect(signInErrorOf({ reason: "no-role", detail: "" })).toBe("no-role");
    expect(signInErrorOf({ reason: "provider-unreachable", detail: "" })).toBe("unavailable");
  });

  it("stores a name and an email the API accepts, whatever the provider sent", () => {
    expect(storableName("  Zoë\u202e Ödegaard \u0007 ", "z@example.com")).toBe("Zoë Ödegaard");
    expect(storableName("\u200e\u200f", "sam.rivera@example.com")).toBe("sam.rivera");
    expect(storableName("x".repeat(99) + "😀", "a@b.example")).toBe("x".repeat(99));
    expect(fallbackEmail("https://localhost:9443", "d4c3f9b5-dave")).toBe("sso-d4c3f9b5-dave@localhost.invalid");
    expect(fallbackEmail("https://login.example.com/tenant/v2.0", "google-oauth2|1234")).toMatch(
      /^sso-[0-9a-f]{24}@login\.example\.com\.invalid$/,
    );
    expect(fallbackEmail("https://[::1]:9443", "abc")).toMatch(/^sso-[0-9a-f]{24}@single-sign-on\.invalid$/);
  });
});

describe.each(TEST_PROVIDERS)("single sign-on through the API on %s", (provider) => {
  let t: TestApp;
  const running: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((close) => close()));
  });
  async function start(env: Record<string, string> = ssoEnv()) {
    t = await createTestApp(env, provider, undefined, undefined, idp.fetch);
    running.push(() => t.close());
    return t;
  }
  const api = (app = t.app) => request(app);

  /** /sso/start: the provider's authorization URL and the flow cookie. */
  async function startFlow(app = t.app) {
    const started = await api(app).get("/admin/v1/sso/start").expect(302);
    const flow = cookieValue(started, FLOW_COOKIE_NAME);
    expect(flow).toBeDefined();
    return { started, location: new URL(started.headers["location"] as string), flow: flow! };
  }
  /** The callback request as the browser makes it: the path and query the provider sent it to, with the flow cookie. */
  const callback = (url: URL, flow: string | undefined, app = t.app, sessionCookie?: string) => {
    const call = api(app).get(`${url.pathname}${url.search}`);
    const cookies = [
      flow === undefined ? undefined : `${FLOW_COOKIE_NAME}=${flow}`,
      sessionCookie && `${SESSION_COOKIE_NAME}=${sessionCookie}`,
    ].filter(Boolean);
    if (cookies.length > 0) call.set("Cookie", cookies.join("; "));
    return call;
  };
  /** The whole round trip as `email`: the callback's answer, the URL the provider sent the browser back to, and the flow cookie. */
  async function signIn(email: string, options: { app?: typeof t.app; sessionCookie?: string } = {}) {
    const app = options.app ?? t.app;
    const { location, flow } = await startFlow(app);
    const back = await idp.signIn(location, email);
    const answer = await callback(back, flow, app, options.sessionCookie).expect(302);
    return { answer, back, flow, session: cookieValue(answer, SESSION_COOKIE_NAME) };
  }
  async function token(session: string, app = t.app) {
    return SessionToken.parse(
      (
        await api(app)
          .post("/admin/v1/session/token")
          .set("Cookie", `${SESSION_COOKIE_NAME}=${session}`)
          .set("Origin", ORIGIN)
          .expect(201)
      ).body,
    ).token;
  }
  async function whoIs(session: string) {
    return Session.parse(
      (
        await api()
          .get("/admin/v1/session")
          .set("Authorization", `Bearer ${await token(session)}`)
          .expect(200)
      ).body,
    );
  }
  const staff = async () =>
    StaffMembers.parse((await api().get("/admin/v1/staff").set("Authorization", asAdmin).expect(200)).body);
  const events = async () =>
    AuditEvents.parse((await api().get("/admin/v1/audit-events").set("Authorization", asAdmin).expect(200)).body);
  async function invite(email: string, name: string, role: StaffRole) {
    return InvitedStaffMember.parse(
      (await api().post("/admin/v1/staff").set("Authorization", asAdmin).send({ email, name, role }).expect(201)).body,
    ).staff;
  }
  const refusedWith = (answer: request.Response, code: string) => {
    expect(answer.status).toBe(302);
    expect(answer.headers["location"]).toBe(`${ORIGIN}/sign-in?error=${code}`);
    expect(cookieValue(answer, SESSION_COOKIE_NAME)).toBeUndefined();
    expect(setCookies(answer)).toContain(`${FLOW_COOKIE_NAME}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`);
  };

  it("is off without the OIDC settings: no option offered, start and callback 404", async () => {
    await start({ ADMIN_ORIGIN: ORIGIN });
    const options = SignInOptions.parse((await api().get("/admin/v1/sign-in-options").expect(200)).body);
    expect(options).toEqual({ passkeys: true, singleSignOn: null });
    expectError(await api().get("/admin/v1/sso/start"), 404, "NOT_FOUND");
    expectError(await api().get("/admin/v1/sso/callback?code=x&state=y"), 404, "NOT_FOUND");
  });

  it("is off without ADMIN_ORIGIN (production's default), the OIDC settings notwithstanding", async () => {
    await start();
    const config = { ...t.config, adminOrigin: undefined };
    const alone = createApp({
      config,
      logger: createLogger(config, { write: () => {} }),
      database: t.database,
      oidcFetch: idp.fetch,
    });
    expect(SignInOptions.parse((await api(alone).get("/admin/v1/sign-in-options").expect(200)).body)).toEqual({
      passkeys: false,
      singleSignOn: null,
    });
    expectError(await api(alone).get("/admin/v1/sso/start"), 404, "NOT_FOUND");
  });

  it("offers itself by name without a credential, and starts with PKCE, state, nonce and a SameSite=Lax flow cookie", async () => {
    await start();
    const options = SignInOptions.parse((await api().get("/admin/v1/sign-in-options").expect(200)).body);
    expect(options).toEqual({ passkeys: true, singleSignOn: { displayName: "Test Workspace" } });
    const { started, location } = await startFlow();
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get("redirect_uri")).toBe(CALLBACK);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get("scope")).toBe("openid email profile groups");
    const line = setCookies(started).find((candidate) => candidate.startsWith(`${FLOW_COOKIE_NAME}=`))!;
    expect(line).toMatch(/; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(started.headers["cache-control"]).toBe("no-store");
  });

  it("signs a mapped person in: admin and write, a session (SameSite=Strict), staff.signed_in sso, lastSignInAt", async () => {
    await start();
    const alice = await signIn("alice@example.test");
    expect(alice.answer.headers["location"]).toBe(`${ORIGIN}/`);
    expect(setCookies(alice.answer).find((line) => line.startsWith(`${SESSION_COOKIE_NAME}=`))).toMatch(
      /; Secure; HttpOnly; SameSite=Strict$/,
    );
    expect(setCookies(alice.answer)).toContain(
      `${FLOW_COOKIE_NAME}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(await whoIs(alice.session!)).toMatchObject({ keyId: null, name: "Alice Admin", scope: "admin" });
    const bob = await signIn("bob@example.test");
    expect(await whoIs(bob.session!)).toMatchObject({ keyId: null, name: "Bob Frontdesk", scope: "write" });

    const people = await staff();
    expect(people.map(({ email, name, role, createdBy }) => ({ email, name, role, createdBy }))).toEqual([
      { email: "bob@example.test", name: "Bob Frontdesk", role: "write", createdBy: null },
      { email: "alice@example.test", name: "Alice Admin", role: "admin", createdBy: null },
    ]);
    expect(people.every((person) => person.lastSignInAt !== null)).toBe(true);
    const signedIn = (await events()).filter((event) => event.action === "staff.signed_in");
    expect(signedIn.map((event) => [event.actor.name, event.actor.staffId, event.detail, event.target.label])).toEqual([
      ["Bob Frontdesk", people[0]!.id, "sso", "Bob Frontdesk"],
      ["Alice Admin", people[1]!.id, "sso", "Alice Admin"],
    ]);
  });

  it("refuses an account whose groups map to no role: the page's code, no session, nobody created", async () => {
    await start();
    const carol = await signIn("carol@example.test");
    refusedWith(carol.answer, "no-role");
    expect(await staff()).toEqual([]);
    expect((await events()).filter((event) => event.action.startsWith("staff."))).toEqual([]);
  });

  it("an unverified email creates a new person, never joins the invited one with that email", async () => {
    await start();
    const invited = await invite("dave@example.test", "Dave Invited", "read");
    const dave = await signIn("dave@example.test");
    expect(dave.answer.headers["location"]).toBe(`${ORIGIN}/`);
    const who = await whoIs(dave.session!);
    expect(who.staffId).not.toBe(invited.id);
    expect(who).toMatchObject({ name: "Dave Unverified", scope: "write" });
    const people = await staff();
    expect(people.find((person) => person.id === invited.id)).toMatchObject({
      email: "dave@example.test",
      role: "read",
      lastSignInAt: null,
    });
    expect(people.find((person) => person.id === who.staffId)).toMatchObject({
      email: "sso-d4c3f9b5-dave@localhost.invalid",
      role: "write",
    });
  });

  it("a verified email joins the invited person: same record and name, the provider's role, staff.role_changed by them", async () => {
    await start();
    const invited = await invite("Alice@Example.test", "Alice A.", "read");
    const alice = await signIn("alice@example.test");
    expect(await whoIs(alice.session!)).toMatchObject({ staffId: invited.id, name: "Alice A.", scope: "admin" });
    expect(await staff()).toHaveLength(1);
    const changed = (await events()).find((event) => event.action === "staff.role_changed");
    expect(changed).toMatchObject({
      actor: { keyId: null, staffId: invited.id, name: "Alice A." },
      target: { type: "staff", id: invited.id },
      detail: "admin",
    });
    // Tied now: the next sign-in finds them by issuer and subject, with no second change.
    await signIn("alice@example.test");
    expect((await events()).filter((event) => event.action === "staff.role_changed")).toHaveLength(1);
  });

  it("re-reads the role at every sign-in: the provider's change is recorded and ends the person's other sessions", async () => {
    await start();
    const first = await signIn("bob@example.test");
    const bobId = (await whoIs(first.session!)).staffId!;
    const firstToken = await token(first.session!);
    // The same store, the identity provider now mapping Bob's group to read (a second replica with the new map).
    const config = {
      ...t.config,
      singleSignOn: { ...t.config.singleSignOn!, roleMap: new Map([["front-desk", "read" as const]]) },
    };
    const replica = createApp({
      config,
      logger: createLogger(config, { write: () => {} }),
      database: t.database,
      oidcFetch: idp.fetch,
    });
    const second = await signIn("bob@example.test", { app: replica });
    expect(await whoIs(second.session!)).toMatchObject({ staffId: bobId, scope: "read" });
    expect((await events()).find((event) => event.action === "staff.role_changed")).toMatchObject({
      actor: { staffId: bobId, name: "Bob Frontdesk" },
      target: { id: bobId },
      detail: "read",
    });
    // The session started before the change has ended (it held the old role); its token is refused too, within 2 s.
    expectError(
      await api()
        .post("/admin/v1/session/token")
        .set("Cookie", `${SESSION_COOKIE_NAME}=${first.session}`)
        .set("Origin", ORIGIN),
      401,
      "UNAUTHORIZED",
    );
    const deadline = Date.now() + 2_500;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await api().get("/v1/pets").set("Authorization", `Bearer ${firstToken}`)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    // And back: the original map gives write again.
    const third = await signIn("bob@example.test");
    expect(await whoIs(third.session!)).toMatchObject({ staffId: bobId, scope: "write" });
  });

  it("two first sign-ins of one identity at once make one person", async () => {
    await start();
    const identity = {
      issuer: idp.issuer,
      subject: "e5f6-erin",
      email: "erin@example.test",
      emailVerified: true,
      fallbackEmail: fallbackEmail(idp.issuer, "e5f6-erin"),
      name: "Erin",
      role: "write" as const,
    };
    const request = { requestId: null, clientAddress: null };
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => t.database.staff.findOrCreateForSso(identity, new Date(), request)),
    );
    expect(new Set(outcomes.map((outcome) => ("staff" in outcome ? outcome.staff.id : outcome.refused))).size).toBe(1);
    expect(outcomes.filter((outcome) => "how" in outcome && outcome.how === "created")).toHaveLength(1);
    expect(await staff()).toHaveLength(1);
  });

  it("refuses a disabled person: no session, no sign-in recorded", async () => {
    await start();
    const bob = await signIn("bob@example.test");
    const bobId = (await whoIs(bob.session!)).staffId!;
    await api().post(`/admin/v1/staff/${bobId}/disable`).set("Authorization", asAdmin).expect(200);
    const before = (await events()).filter((event) => event.action === "staff.signed_in").length;
    const again = await signIn("bob@example.test");
    refusedWith(again.answer, "disabled");
    expect((await events()).filter((event) => event.action === "staff.signed_in")).toHaveLength(before);
    expect((await staff()).find((person) => person.id === bobId)?.disabledAt).not.toBeNull();
  });

  it("refuses a wrong state, a missing flow cookie and another browser's callback, spending the failure budget", async () => {
    await start(ssoEnv({ AUTH_FAILURES_PER_MIN: "3" }));
    // A wrong state: this browser's flow, the state changed.
    const { location, flow } = await startFlow();
    const back = await idp.signIn(location, "alice@example.test");
    const forged = new URL(back);
    forged.searchParams.set("state", "x".repeat(43));
    const wrongState = await callback(forged, flow);
    refusedWith(wrongState, "failed");
    expect(wrongState.headers["ratelimit"]).toMatch(/r=2\b/);
    // Login CSRF: an attacker's own code and state, landed in a victim's browser that started a flow of its own.
    const victim = await startFlow();
    refusedWith(await callback(back, victim.flow), "failed");
    // No flow cookie at all (another browser, or cookies blocked).
    refusedWith(await callback(back, undefined), "expired");
    // Past the budget: the page says so.
    const fourth = await callback(forged, flow);
    refusedWith(fourth, "too-many");
    expect(fourth.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
    expect(await staff()).toEqual([]);
    const refusals = t.logs
      .filter((line) => line.includes("single sign-on refused"))
      .map((line) => JSON.parse(line) as { sso: { reason: string } });
    // Past the budget the callback is not looked at (nor its code redeemed): refused as over the budget.
    expect(refusals.map((line) => line.sso.reason)).toEqual([
      "state-mismatch",
      "state-mismatch",
      "flow-missing",
      "over-budget",
    ]);
  });

  /** The provider's token endpoint, as its discovery document names it. */
  async function tokenEndpoint(): Promise<string> {
    const discovery = await idp.fetch(new URL("/.well-known/openid-configuration", idp.issuer));
    return ((await discovery.json()) as { token_endpoint: string }).token_endpoint;
  }
  /** An app whose requests to the provider's token endpoint are counted (they carry the client secret). */
  async function startCountingTokenCalls(env: Record<string, string>) {
    const endpoint = await tokenEndpoint();
    const calls: string[] = [];
    const fetch: typeof idp.fetch = (url, init) => {
      if (new URL(url).href === endpoint) calls.push(new URL(url).href);
      return idp.fetch(url, init);
    };
    t = await createTestApp(env, provider, undefined, undefined, fetch);
    running.push(() => t.close());
    return calls;
  }

  it("checks the address's failure budget before the provider's token endpoint: past it, no request reaches the provider, even all at once", async () => {
    const calls = await startCountingTokenCalls(ssoEnv({ AUTH_FAILURES_PER_MIN: "2" }));
    // A flow of the attacker's own (its state matches), and made-up codes: each would be redeemed with the client secret.
    const { location, flow } = await startFlow();
    const back = await idp.signIn(location, "alice@example.test");
    const guess = (i: number) => {
      const url = new URL(back);
      url.searchParams.set("code", `guessed-code-${i}`);
      return url;
    };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => callback(guess(i), flow)));
    expect(calls).toHaveLength(2);
    const codes = answers
      .map((answer) => new URL(answer.headers["location"] as string).searchParams.get("error"))
      .sort();
    expect(codes).toEqual(["failed", "failed", "too-many", "too-many", "too-many", "too-many"]);
    for (const answer of answers.filter((candidate) => String(candidate.headers["location"]).endsWith("too-many"))) {
      refusedWith(answer, "too-many");
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    // One after another, and the genuine code too: past the budget nothing is redeemed.
    for (let i = 6; i < 9; i++) refusedWith(await callback(guess(i), flow), "too-many");
    refusedWith(await callback(back, flow), "too-many");
    expect(calls).toHaveLength(2);
    expect(await staff()).toEqual([]);
  });

  it("a sign-in that completes gives its unit of the failure budget back: only refusals spend it", async () => {
    const calls = await startCountingTokenCalls(ssoEnv({ AUTH_FAILURES_PER_MIN: "2" }));
    await signIn("alice@example.test");
    const bob = await signIn("bob@example.test");
    expect(bob.answer.headers["location"]).toBe(`${ORIGIN}/`);
    const replayed = await callback(bob.back, bob.flow);
    refusedWith(replayed, "failed");
    expect(replayed.headers["ratelimit"]).toMatch(/^"auth-failures";r=1;t=\d+$/);
    refusedWith(await callback(bob.back, bob.flow), "failed");
    refusedWith(await callback(bob.back, bob.flow), "too-many");
    expect(calls).toHaveLength(4);
  });

  it("/sso/start is counted per address, in the sign-in starts budget: past it the sign-in page says too-many, and no flow starts", async () => {
    await start(ssoEnv({ AUTH_FAILURES_PER_MIN: "2" }));
    for (const left of [1, 0]) {
      const { started, location } = await startFlow();
      expect(location.origin).toBe(idp.issuer);
      expect(started.headers["ratelimit-policy"]).toBe('"sign-in-starts";q=2;w=60');
      expect(started.headers["ratelimit"]).toMatch(new RegExp(`^"sign-in-starts";r=${left};t=\\d+$`));
    }
    const limited = await api().get("/admin/v1/sso/start").expect(302);
    expect(limited.headers["location"]).toBe(`${ORIGIN}/sign-in?error=too-many`);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit"]).toMatch(/^"sign-in-starts";r=0;t=\d+$/);
    expect(cookieValue(limited, FLOW_COOKIE_NAME)).toBeUndefined();
    // One budget with the passkey sign-ins started from the address.
    expectError(await api().post("/admin/v1/passkeys/authentication/options").send({}), 429, "RATE_LIMITED");
  });

  it("says so when the person cancels at the provider", async () => {
    await start();
    const { location, flow } = await startFlow();
    const back = await idp.signIn(location, { cancel: true });
    refusedWith(await callback(back, flow), "cancelled");
  });

  it("takes a provider's error with line breaks in its description (as Entra ID sends) to the sign-in page", async () => {
    await start();
    const { location, flow } = await startFlow();
    const back = new URL(CALLBACK);
    back.search = new URLSearchParams({
      error: "access_denied",
      error_description: "AADSTS65004: User declined to consent.\r\nTrace ID: 0e1f\r\nCorrelation ID: 9a8b",
      state: location.searchParams.get("state")!,
      iss: idp.issuer,
    }).toString();
    refusedWith(await callback(back, flow), "cancelled");
  });

  it("gives a new session id at every sign-in; the browser's previous session ends", async () => {
    await start();
    const first = await signIn("alice@example.test");
    const second = await signIn("alice@example.test", { sessionCookie: first.session! });
    expect(second.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.session).not.toBe(first.session);
    expectError(
      await api()
        .post("/admin/v1/session/token")
        .set("Cookie", `${SESSION_COOKIE_NAME}=${first.session}`)
        .set("Origin", ORIGIN),
      401,
      "UNAUTHORIZED",
    );
    expect((await whoIs(second.session!)).name).toBe("Alice Admin");
  });

  it("puts no code, state, flow cookie, session cookie or client secret in the logs or the activity log", async () => {
    await start();
    const alice = await signIn("alice@example.test");
    const sessionToken = await token(alice.session!);
    const refused = await signIn("carol@example.test");
    const secrets = [
      alice.back.searchParams.get("code")!,
      alice.back.searchParams.get("state")!,
      refused.back.searchParams.get("code")!,
      refused.back.searchParams.get("state")!,
      alice.flow,
      refused.flow,
      alice.session!,
      sessionToken,
      idp.clientSecret,
    ];
    const logs = t.logs.join("\n");
    expect(logs).toContain("/admin/v1/sso/callback?(query not logged)");
    const activity = JSON.stringify(await events());
    const dump = JSON.stringify(await Promise.all([t.database.staff.listStaff(), t.database.access.activeKeys()]));
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(logs).not.toContain(secret);
      expect(activity).not.toContain(secret);
      expect(dump).not.toContain(secret);
    }
  });
});
