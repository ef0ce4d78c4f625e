import { expect, test, type Page } from "@playwright/test";
import { PASSKEY_APP_URL } from "../playwright.config.js";
import { addVirtualAuthenticator, asOperator, PASSKEY_API_URL, runSuffix } from "./virtual-authenticator.js";

/**
 * The API's passkey ceremonies with a real browser's WebAuthn (Chromium, its virtual authenticator),
 * without the admin app's pages: the page's own script asks for options, calls
 * navigator.credentials.create() and .get(), and sends the answers, as @simplewebauthn/browser does.
 * It proves the relying party, the origin and the options are what a browser accepts.
 */

type Json = Record<string, unknown>;

/** In the page: one ceremony, from options to the API's answer. */
async function ceremonyInPage(page: Page, kind: "create" | "get", optionsPath: string, answerPath: string, body: Json) {
  return page.evaluate(
    async ({ kind, optionsPath, answerPath, body }) => {
      const toBytes = (text: string) =>
        Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const toText = (buffer: ArrayBuffer | null) =>
        buffer === null
          ? undefined
          : btoa(String.fromCharCode(...new Uint8Array(buffer)))
              .replace(/\+/g, "-")
              .replace(/\//g, "_")
              .replace(/=+$/, "");
      const post = (path: string, payload: unknown) =>
        fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
          credentials: "same-origin",
        });
      const optionsResponse = await post(optionsPath, body);
      if (optionsResponse.status !== 200) return { status: optionsResponse.status, body: await optionsResponse.json() };
      const options = await optionsResponse.json();
      let response: Record<string, unknown>;
      if (kind === "create") {
        const credential = (await navigator.credentials.create({
          publicKey: {
            ...options,
            challenge: toBytes(options.challenge),
            user: { ...options.user, id: toBytes(options.user.id) },
            excludeCredentials: (options.excludeCredentials ?? []).map((c: { id: string }) => ({
              ...c,
              id: toBytes(c.id),
            })),
          },
        })) as PublicKeyCredential;
        const attestation = credential.response as AuthenticatorAttestationResponse;
        response = {
          id: credential.id,
          rawId: toText(credential.rawId),
          type: credential.type,
          response: {
            clientDataJSON: toText(attestation.clientDataJSON),
            attestationObject: toText(attestation.attestationObject),
            transports: attestation.getTransports(),
          },
          clientExtensionResults: credential.getClientExtensionResults(),
        };
      } else {
        const credential = (await navigator.credentials.get({
          publicKey: { ...options, challenge: toBytes(options.challenge) },
        })) as PublicKeyCredential;
        const assertion = credential.response as AuthenticatorAssertionResponse;
        response = {
          id: credential.id,
          rawId: toText(credential.rawId),
          type: credential.type,
          response: {
            clientDataJSON: toText(assertion.clientDataJSON),
            authenticatorData: toText(assertion.authenticatorData),
            signature: toText(assertion.signature),
            userHandle: toText(assertion.userHandle),
          },
          clientExtensionResults: credential.getClientExtensionResults(),
        };
      }
      const answer = await post(answerPath, { ...body, response });
      return { status: answer.status, body: await answer.json() };
    },
    { kind, optionsPath, answerPath, body },
  );
}

test("Chromium's authenticator: an invitation's passkey signs the person in; after signing out it signs them in again, no email typed", async ({
  page,
  request,
}) => {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const name = `Robin ${runSuffix()}`;
  const invited = await request.post(`${PASSKEY_API_URL}/admin/v1/staff`, {
    headers: asOperator,
    data: { email: `${name.replace(" ", ".").toLowerCase()}@example.com`, name, role: "write" },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl, staff } = (await invited.json()) as { invitationUrl: string; staff: { id: number } };
  expect(invitationUrl.startsWith(`${PASSKEY_APP_URL}/invite#`)).toBe(true);
  const invitationToken = invitationUrl.split("#")[1]!;

  await page.goto("/sign-in");
  const created = await ceremonyInPage(
    page,
    "create",
    "/admin/v1/passkeys/registration/options",
    "/admin/v1/passkeys/registration",
    { invitationToken },
  );
  expect(created).toMatchObject({ status: 201, body: { staffId: staff.id, name, scope: "write", keyId: null } });

  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });

  // The session cookie works (HttpOnly: the page cannot read it, only use it), then ends on sign-out.
  const session = await page.evaluate(async () => {
    const token = await fetch("/admin/v1/session/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { token: bearer } = await token.json();
    const account = await fetch("/admin/v1/account", { headers: { authorization: `Bearer ${bearer}` } });
    const signOut = await fetch("/admin/v1/session/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const after = await fetch("/admin/v1/session/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    return {
      token: token.status,
      account: await account.json(),
      signOut: signOut.status,
      after: after.status,
      cookies: document.cookie,
    };
  });
  expect(session).toMatchObject({ token: 201, signOut: 204, after: 401, cookies: "" });
  expect((session.account as { passkeys: unknown[] }).passkeys).toHaveLength(1);

  const signedIn = await ceremonyInPage(
    page,
    "get",
    "/admin/v1/passkeys/authentication/options",
    "/admin/v1/passkeys/authentication",
    {},
  );
  expect(signedIn).toMatchObject({ status: 200, body: { staffId: staff.id, name } });
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // The invitation is used up.
  const again = await ceremonyInPage(
    page,
    "create",
    "/admin/v1/passkeys/registration/options",
    "/admin/v1/passkeys/registration",
    { invitationToken },
  );
  expect(again).toMatchObject({ status: 404, body: { message: "This invitation has expired or was already used." } });
});
