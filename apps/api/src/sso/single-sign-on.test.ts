import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRoleMap, type SingleSignOnSettings } from "../base/sso-settings.js";
import { startOidcProvider, TEST_ROLE_MAP, type TestOidcProvider } from "../test/oidc-provider.js";
import { flowKey, openFlow, sealFlow, type SignInFlow } from "./flow-cookie.js";
import {
  CLEARED_FLOW_COOKIE,
  createSingleSignOn,
  FLOW_COOKIE_NAME,
  IdentityProviderUnreachable,
  NO_ROLE_MESSAGE,
  type SingleSignOnOptions,
  type FinishSignInResult,
} from "./single-sign-on.js";

// The whole authorization code round trip against a real OpenID provider (oidc-provider on https with a
// throwaway certificate authority), driven without a browser: the test follows the provider's redirects,
// submits its login form, and hands the callback URL it is sent back to to finishSignIn.

const ADMIN_ORIGIN = "https://admin.petstore.test";
const REDIRECT_URI = `${ADMIN_ORIGIN}/admin/v1/sso/callback`;
/** Development and the browser tests open the app on http://localhost (WebAuthn refuses an IP address). */
const LOCAL_ORIGIN = "http://localhost:5173";
const roleMap = (() => {
  const parsed = parseRoleMap(TEST_ROLE_MAP);
  if (!("map" in parsed)) throw new Error(parsed.problem);
  return parsed.map;
})();

let idp: TestOidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [REDIRECT_URI, `${LOCAL_ORIGIN}/admin/v1/sso/callback`] });
});
afterAll(async () => {
  await idp?.close();
});

function settingsFor(provider: TestOidcProvider, overrides: Partial<SingleSignOnSettings> = {}): SingleSignOnSettings {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    displayName: "single sign-on",
    roleClaim: "groups",
    roleMap,
    extraScopes: ["groups"],
    ...overrides,
  };
}

const ssoFor = (
  provider: TestOidcProvider,
  overrides: Partial<SingleSignOnSettings> = {},
  options: Partial<SingleSignOnOptions> = {},
) =>
  createSingleSignOn(settingsFor(provider, overrides), {
    adminOrigin: ADMIN_ORIGIN,
    fetch: provider.fetch,
    ...options,
  });

/** Start, sign in at the provider as `email`, come back: the callback URL and the flow cookie's value. */
async function throughProvider(sso: ReturnType<typeof ssoFor>, email: string, provider = idp) {
  const started = await sso.startSignIn();
  const callback = await provider.signIn(started.authorizationUrl, email);
  return { started, callback, cookie: started.flowCookie.value };
}

function refusalOf(result: FinishSignInResult) {
  if (result.ok) throw new Error(`expected a refusal, got a sign-in as ${result.signIn.email}`);
  return result.refusal;
}

function signInOf(result: FinishSignInResult) {
  if (!result.ok) throw new Error(`expected a sign-in, got ${result.refusal.reason}: ${result.refusal.detail}`);
  return result.signIn;
}

describe("single sign-on against a real OpenID provider", () => {
  it("signs Alice in as admin through the authorization code flow with PKCE (S256), state and nonce", async () => {
    const sso = ssoFor(idp);
    expect(sso.redirectUri).toBe(REDIRECT_URI);
    const { started, callback, cookie } = await throughProvider(sso, "alice@example.test");

    const asked = started.authorizationUrl;
    expect(asked.origin).toBe(idp.issuer);
    expect(asked.searchParams.get("response_type")).toBe("code");
    expect(asked.searchParams.get("client_id")).toBe(idp.clientId);
    expect(asked.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(asked.searchParams.get("scope")).toBe("openid email profile groups");
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
    // The challenge is the SHA-256 of the verifier sealed in the cookie.
    const flow = openFlow(cookie, flowKey(idp.clientSecret), Math.floor(Date.now() / 1000)) as SignInFlow;
    expect(typeof flow).toBe("object");
    expect(asked.searchParams.get("code_challenge")).toBe(
      createHash("sha256").update(flow.codeVerifier).digest("base64url"),
    );
    expect(asked.searchParams.get("state")).toBe(flow.state);
    expect(asked.searchParams.get("nonce")).toBe(flow.nonce);
    // Nothing of the flow is readable in the cookie itself.
    for (const secret of [flow.state, flow.nonce, flow.codeVerifier]) expect(cookie).not.toContain(secret);

    expect(started.flowCookie.name).toBe("__Host-petstore-sso");
    expect(started.flowCookie.setCookie).toBe(
      `__Host-petstore-sso=${cookie}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(CLEARED_FLOW_COOKIE).toMatch(/^__Host-petstore-sso=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(FLOW_COOKIE_NAME).toBe("__Host-petstore-sso");

    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("code")).toBeTruthy();
    expect(callback.searchParams.get("state")).toBe(flow.state);
    expect(callback.searchParams.get("iss")).toBe(idp.issuer);

    const signIn = signInOf(await sso.finishSignIn(callback, cookie));
    expect(signIn).toEqual({
      issuer: idp.issuer,
      subject: "a1f0c6e2-alice",
      email: "alice@example.test",
      emailVerified: true,
      name: "Alice Admin",
      role: "admin",
    });
  });

  it("maps Bob's front-desk group to write, and reads only the callback's query (a forged host changes nothing)", async () => {
    const sso = ssoFor(idp);
    const { callback, cookie } = await throughProvider(sso, "bob@example.test");
    const forged = new URL(`https://evil.example/elsewhere${callback.search}`);
    const signIn = signInOf(await sso.finishSignIn(forged, cookie));
    expect(signIn).toMatchObject({
      email: "bob@example.test",
      role: "write",
      emailVerified: true,
      name: "Bob Frontdesk",
    });
  });

  it("works with an http://localhost admin origin, as in development and the browser tests", async () => {
    const sso = ssoFor(idp, {}, { adminOrigin: LOCAL_ORIGIN });
    expect(sso.redirectUri).toBe("http://localhost:5173/admin/v1/sso/callback");
    const { callback, cookie } = await throughProvider(sso, "bob@example.test");
    expect(`${callback.origin}${callback.pathname}`).toBe(sso.redirectUri);
    expect(signInOf(await sso.finishSignIn(callback, cookie)).role).toBe("write");
  });

  it("gives the highest mapped role when several values map", async () => {
    const sso = ssoFor(idp, {
      roleMap: new Map([
        ["everyone", "read"],
        ["petstore-admins", "admin"],
        ["front-desk", "write"],
      ]),
    });
    expect(signInOf(await sso.finishSignIn(...(await callbackAndCookie(sso, "alice@example.test")))).role).toBe(
      "admin",
    );
    expect(signInOf(await sso.finishSignIn(...(await callbackAndCookie(sso, "carol@example.test")))).role).toBe("read");
  });

  it("refuses Carol, whose groups map to no role, with the page's sentence", async () => {
    const sso = ssoFor(idp);
    const refusal = refusalOf(await sso.finishSignIn(...(await callbackAndCookie(sso, "carol@example.test"))));
    expect(refusal.reason).toBe("no-role");
    expect(refusal.message).toBe(NO_ROLE_MESSAGE);
    expect(NO_ROLE_MESSAGE).toBe("Your account has no role in this store.");
  });

  it("signs Dave in and reports his email as unverified", async () => {
    const sso = ssoFor(idp);
    const [callback, cookie] = await callbackAndCookie(sso, "dave@example.test");
    // As Express has it: req.originalUrl, a path and query.
    const signIn = signInOf(await sso.finishSignIn(`${callback.pathname}${callback.search}`, cookie));
    expect(signIn).toMatchObject({ email: "dave@example.test", emailVerified: false, role: "write" });
  });

  it("refuses a callback whose state is not this browser's flow's", async () => {
    const sso = ssoFor(idp);
    const mine = await sso.startSignIn();
    const theirs = await throughProvider(sso, "alice@example.test");
    // An attacker's callback (their code, their state) delivered to a browser holding another flow: login CSRF.
    const crossed = refusalOf(await sso.finishSignIn(theirs.callback, mine.flowCookie.value));
    expect(crossed.reason).toBe("state-mismatch");
    // The right flow, the state edited in the URL.
    const edited = new URL(theirs.callback);
    edited.searchParams.set("state", `${edited.searchParams.get("state")}x`);
    expect(refusalOf(await sso.finishSignIn(edited, theirs.cookie)).reason).toBe("state-mismatch");
    const none = new URL(theirs.callback);
    none.searchParams.delete("state");
    expect(refusalOf(await sso.finishSignIn(none, theirs.cookie)).reason).toBe("state-mismatch");
    // Refusals spend nothing: the untouched callback still signs in.
    expect(signInOf(await sso.finishSignIn(theirs.callback, theirs.cookie)).role).toBe("admin");
  });

  it("refuses a tampered, forged, missing or expired flow cookie", async () => {
    const sso = ssoFor(idp);
    const { callback, cookie } = await throughProvider(sso, "alice@example.test");
    const bytes = Buffer.from(cookie, "base64url");
    for (const at of [0, 20, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[at]! ^= 1;
      expect(refusalOf(await sso.finishSignIn(callback, changed.toString("base64url"))).reason).toBe("flow-invalid");
    }
    expect(refusalOf(await sso.finishSignIn(callback, `${cookie}A`)).reason).toBe("flow-invalid");
    expect(refusalOf(await sso.finishSignIn(callback, "not a cookie")).reason).toBe("flow-invalid");
    // The same flow sealed under another secret: an attacker who knows state, nonce and verifier still cannot make a cookie.
    const flow = openFlow(cookie, flowKey(idp.clientSecret), Math.floor(Date.now() / 1000)) as SignInFlow;
    expect(refusalOf(await sso.finishSignIn(callback, sealFlow(flow, flowKey("another secret")))).reason).toBe(
      "flow-invalid",
    );
    const missing = refusalOf(await sso.finishSignIn(callback, undefined));
    expect(missing.reason).toBe("flow-missing");
    expect(refusalOf(await sso.finishSignIn(callback, "")).reason).toBe("flow-missing");
    // Ten minutes later the flow is over, whatever the browser kept.
    const later = ssoFor(idp, {}, { now: () => Date.now() + 601_000 });
    const expired = refusalOf(await later.finishSignIn(callback, cookie));
    expect(expired.reason).toBe("flow-expired");
    expect(expired.message).toBe("The sign-in took too long. Please try again.");
    // None of that spent the code.
    expect(signInOf(await sso.finishSignIn(callback, cookie)).email).toBe("alice@example.test");
  });

  it("checks the ID token's nonce against the flow's", async () => {
    const sso = ssoFor(idp);
    const key = flowKey(idp.clientSecret);
    const now = Math.floor(Date.now() / 1000);
    const other = openFlow((await sso.startSignIn()).flowCookie.value, key, now) as SignInFlow;
    const { callback, cookie } = await throughProvider(sso, "alice@example.test");
    const flow = openFlow(cookie, key, now) as SignInFlow;
    // State and verifier right, the nonce another flow's: the ID token carries this flow's nonce.
    const refusal = refusalOf(await sso.finishSignIn(callback, sealFlow({ ...flow, nonce: other.nonce }, key)));
    expect(refusal.reason).toBe("response-invalid");
    expect(refusal.detail).toMatch(/nonce/);
  });

  it("is refused by the provider without PKCE, and with another flow's verifier", async () => {
    const sso = ssoFor(idp);
    const started = await sso.startSignIn();
    const bare = new URL(started.authorizationUrl);
    bare.searchParams.delete("code_challenge");
    bare.searchParams.delete("code_challenge_method");
    const answer = await idp.fetch(bare);
    expect(answer.status).toBeGreaterThanOrEqual(300);
    const back = new URL(answer.headers.get("location")!, idp.issuer);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/requires PKCE/);
    // The provider's error comes back to us: refused, as the provider's.
    const refused = refusalOf(await sso.finishSignIn(back, started.flowCookie.value));
    expect(refused.reason).toBe("provider-error");
    expect(refused.detail).toMatch(/invalid_request/);

    const key = flowKey(idp.clientSecret);
    const now = Math.floor(Date.now() / 1000);
    const other = openFlow((await sso.startSignIn()).flowCookie.value, key, now) as SignInFlow;
    const { callback, cookie } = await throughProvider(sso, "alice@example.test");
    const flow = openFlow(cookie, key, now) as SignInFlow;
    const wrongVerifier = refusalOf(
      await sso.finishSignIn(callback, sealFlow({ ...flow, codeVerifier: other.codeVerifier }, key)),
    );
    expect(wrongVerifier.reason).toBe("token-exchange-failed");
    expect(wrongVerifier.detail).toMatch(/invalid_grant/);
  });

  it("redeems a code once: the same callback a second time is refused", async () => {
    const sso = ssoFor(idp);
    const [callback, cookie] = await callbackAndCookie(sso, "bob@example.test");
    expect(signInOf(await sso.finishSignIn(callback, cookie)).role).toBe("write");
    const again = refusalOf(await sso.finishSignIn(callback, cookie));
    expect(again.reason).toBe("token-exchange-failed");
    expect(again.detail).toMatch(/invalid_grant/);
    expect(again.detail).not.toContain(callback.searchParams.get("code")!);
  });

  it("reports a sign-in cancelled at the provider", async () => {
    const sso = ssoFor(idp);
    const started = await sso.startSignIn();
    const callback = await idp.signIn(started.authorizationUrl, { cancel: true });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const refusal = refusalOf(await sso.finishSignIn(callback, started.flowCookie.value));
    expect(refusal).toMatchObject({
      reason: "provider-error",
      message: "Sign-in was cancelled at the identity provider.",
    });
  });

  it("refuses when the role claim is absent everywhere (a claim the provider does not send)", async () => {
    const sso = ssoFor(idp, { roleClaim: "roles" });
    const refusal = refusalOf(await sso.finishSignIn(...(await callbackAndCookie(sso, "alice@example.test"))));
    expect(refusal.reason).toBe("no-role");
  });

  it("throws IdentityProviderUnreachable when discovery fails, and tries again at the next start", async () => {
    const gone = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
    await gone.close();
    const sso = createSingleSignOn(settingsFor(gone), {
      adminOrigin: ADMIN_ORIGIN,
      fetch: idp.fetch,
      timeoutSeconds: 2,
    });
    await expect(sso.startSignIn()).rejects.toBeInstanceOf(IdentityProviderUnreachable);
    await expect(sso.startSignIn()).rejects.toThrow(/discovery at https:\/\/localhost:[0-9]+ failed/);
  });
});

describe("single sign-on with the claims in userinfo only", () => {
  let userinfoIdp: TestOidcProvider;
  beforeAll(async () => {
    userinfoIdp = await startOidcProvider({
      redirectUris: [REDIRECT_URI],
      claimsInIdToken: false,
      tokenEndpointAuthMethod: "client_secret_post",
    });
  });
  afterAll(async () => {
    await userinfoIdp?.close();
  });

  it("reads the role claim and the email from userinfo when the ID token lacks them (client_secret_post)", async () => {
    const sso = ssoFor(userinfoIdp);
    const { callback, cookie } = await throughProvider(sso, "bob@example.test", userinfoIdp);
    expect(signInOf(await sso.finishSignIn(callback, cookie))).toEqual({
      issuer: userinfoIdp.issuer,
      subject: "b2e1d7f3-bob",
      email: "bob@example.test",
      emailVerified: true,
      name: "Bob Frontdesk",
      role: "write",
    });
    const carol = await throughProvider(sso, "carol@example.test", userinfoIdp);
    expect(refusalOf(await sso.finishSignIn(carol.callback, carol.cookie)).reason).toBe("no-role");
  });
});

describe("the test provider's certificate authority", () => {
  it("is trusted by a spawned Node process given NODE_EXTRA_CA_CERTS, and only then", async () => {
    const run = promisify(execFile);
    const script = `fetch(${JSON.stringify(`${idp.issuer}/.well-known/openid-configuration`)}).then(r => r.json()).then(d => console.log(d.issuer), e => console.log("refused:", e.cause?.code ?? e.message))`;
    const trusted = await run(process.execPath, ["-e", script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: idp.caFile },
    });
    expect(trusted.stdout.trim()).toBe(idp.issuer);
    const { NODE_EXTRA_CA_CERTS: _unset, ...without } = process.env;
    const untrusted = await run(process.execPath, ["-e", script], { env: without });
    expect(untrusted.stdout.trim()).toMatch(/^refused: /);
  });
});

async function callbackAndCookie(sso: ReturnType<typeof ssoFor>, email: string): Promise<[URL, string]> {
  const { callback, cookie } = await throughProvider(sso, email);
  return [callback, cookie];
}
