import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import type * as SimpleWebAuthnBrowser from "@simplewebauthn/browser";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createPasskey, PASSKEY_MESSAGES, PasskeyError, signInWithPasskey } from "./passkey-ceremonies.js";

vi.mock("@simplewebauthn/browser", async (importOriginal) => {
  const original = await importOriginal<typeof SimpleWebAuthnBrowser>();
  return {
    ...original,
    browserSupportsWebAuthn: vi.fn(() => true),
    startAuthentication: vi.fn(),
    startRegistration: vi.fn(),
  };
});

const session = { keyId: null, staffId: 7, name: "Robin Park", scope: "write", expiresAt: "2026-12-02T00:00:00.000Z" };
const passkey = { id: 3, name: "Work laptop", createdAt: "2026-11-25T00:00:00.000Z", lastUsedAt: null };
const creationOptions = {
  challenge: "c1",
  rp: { id: "localhost", name: "Petstore admin" },
  user: { id: "dQ", name: "r@example.com", displayName: "Robin Park" },
};
const requestOptions = { challenge: "c2", rpId: "localhost", userVerification: "required" };
const registration = {
  id: "cred",
  rawId: "cred",
  type: "public-key",
  response: { clientDataJSON: "e30", attestationObject: "oA" },
  clientExtensionResults: {},
};
const assertion = {
  id: "cred",
  rawId: "cred",
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
  clientExtensionResults: {},
};
const TOKEN = "t".repeat(43);

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const refusal = (status: number, code: string, message: string) => json(status, { code, message, status });

type Answer = (init: RequestInit) => Response | Promise<Response>;

/** A fake API: answers by path, and records what was sent (path, method, JSON body, headers). */
function fakeApi(answers: Record<string, Answer>) {
  const sent: Array<{
    path: string;
    method: string;
    body: unknown;
    headers: Headers;
    credentials: RequestCredentials | undefined;
  }> = [];
  const fetcher = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input), "http://localhost").pathname;
    sent.push({
      path,
      method: init.method ?? "GET",
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      headers: new Headers(init.headers),
      credentials: init.credentials,
    });
    const answer = answers[path];
    if (!answer) throw new Error(`unexpected request to ${path}`);
    return answer(init);
  });
  return { fetcher, sent };
}

const domError = (name: string) => Object.assign(new Error(`${name} happened`), { name });
const rejection = async (promise: Promise<unknown>): Promise<PasskeyError> => {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PasskeyError);
  // The pages show an Error's message as it is unless it carries `status` (an API response).
  expect(error).not.toHaveProperty("status");
  return error as PasskeyError;
};

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(browserSupportsWebAuthn).mockReturnValue(true);
  vi.mocked(startAuthentication).mockResolvedValue(assertion as never);
  vi.mocked(startRegistration).mockResolvedValue(registration as never);
});

describe("signInWithPasskey", () => {
  it("asks for options, hands them to the authenticator and sends its answer, with this origin's cookies and no bearer", async () => {
    const { fetcher, sent } = fakeApi({
      "/admin/v1/passkeys/authentication/options": () => json(200, requestOptions),
      "/admin/v1/passkeys/authentication": () => json(200, session),
    });
    vi.stubGlobal("fetch", fetcher);
    await signInWithPasskey();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: requestOptions });
    expect(sent.map(({ path, method, body }) => [method, path, body])).toEqual([
      ["POST", "/admin/v1/passkeys/authentication/options", {}],
      ["POST", "/admin/v1/passkeys/authentication", { response: assertion }],
    ]);
    for (const request of sent) {
      expect(request.credentials).toBe("same-origin");
      expect(request.headers.has("authorization")).toBe(false);
    }
  });

  it("the API's refusal rejects with its sentence (a disabled account, too many tries)", async () => {
    const { fetcher } = fakeApi({
      "/admin/v1/passkeys/authentication/options": () => json(200, requestOptions),
      "/admin/v1/passkeys/authentication": () => refusal(401, "UNAUTHORIZED", "This account is disabled."),
    });
    vi.stubGlobal("fetch", fetcher);
    const error = await rejection(signInWithPasskey());
    expect(error).toMatchObject({ reason: "refused", httpStatus: 401, message: "This account is disabled." });

    const { fetcher: limited } = fakeApi({
      "/admin/v1/passkeys/authentication/options": () =>
        refusal(429, "RATE_LIMITED", "Too many failed sign-in attempts from this address; retry after 30 seconds."),
    });
    vi.stubGlobal("fetch", limited);
    expect(await rejection(signInWithPasskey())).toMatchObject({
      reason: "refused",
      httpStatus: 429,
      message: expect.stringContaining("retry after 30 seconds"),
    });
  });

  it("a closed or timed-out dialog is 'cancelled', and no answer is sent", async () => {
    const { fetcher, sent } = fakeApi({ "/admin/v1/passkeys/authentication/options": () => json(200, requestOptions) });
    vi.stubGlobal("fetch", fetcher);
    vi.mocked(startAuthentication).mockRejectedValue(
      new WebAuthnError({
        message: "The operation either timed out or was not allowed.",
        code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
        cause: domError("NotAllowedError"),
      }),
    );
    expect(await rejection(signInWithPasskey())).toMatchObject({
      reason: "cancelled",
      message: PASSKEY_MESSAGES.cancelledSignIn,
    });
    expect(sent).toHaveLength(1);
  });

  it("a browser without WebAuthn is told so before anything is asked", async () => {
    const { fetcher } = fakeApi({});
    vi.stubGlobal("fetch", fetcher);
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    expect(await rejection(signInWithPasskey())).toMatchObject({
      reason: "unsupported",
      message: PASSKEY_MESSAGES.unsupported,
    });
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("a network failure or a server fault is 'failed'", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await rejection(signInWithPasskey())).toMatchObject({ reason: "failed", message: PASSKEY_MESSAGES.failed });
    const { fetcher } = fakeApi({
      "/admin/v1/passkeys/authentication/options": () =>
        refusal(503, "UNAVAILABLE", "The store is unavailable; retry shortly."),
    });
    vi.stubGlobal("fetch", fetcher);
    expect(await rejection(signInWithPasskey())).toMatchObject({
      reason: "failed",
      httpStatus: 503,
      message: "The store is unavailable; retry shortly.",
    });
  });
});

describe("createPasskey", () => {
  it("from an invitation: the token goes in both bodies (never a URL), with this origin's cookies", async () => {
    const { fetcher, sent } = fakeApi({
      "/admin/v1/passkeys/registration/options": () => json(200, creationOptions),
      "/admin/v1/passkeys/registration": () => json(201, session),
    });
    vi.stubGlobal("fetch", fetcher);
    await createPasskey({ invitationToken: TOKEN });
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    expect(sent.map(({ path, body, credentials }) => [path, body, credentials])).toEqual([
      ["/admin/v1/passkeys/registration/options", { invitationToken: TOKEN }, "same-origin"],
      ["/admin/v1/passkeys/registration", { invitationToken: TOKEN, response: registration }, "same-origin"],
    ]);
  });

  it("an expired or used invitation: the API's sentence", async () => {
    const { fetcher } = fakeApi({
      "/admin/v1/passkeys/registration/options": () =>
        refusal(404, "NOT_FOUND", "This invitation has expired or was already used."),
    });
    vi.stubGlobal("fetch", fetcher);
    expect(await rejection(createPasskey({ invitationToken: TOKEN }))).toMatchObject({
      reason: "refused",
      httpStatus: 404,
      message: "This invitation has expired or was already used.",
    });
    expect(startRegistration).not.toHaveBeenCalled();
  });

  it("signed in: both requests go through the Account page's authorizedFetch (the session token), with the name given", async () => {
    const { fetcher, sent } = fakeApi({
      "/admin/v1/account/passkeys/registration/options": () => json(200, creationOptions),
      "/admin/v1/account/passkeys/registration": () => json(201, passkey),
    });
    const globalFetch = vi.fn();
    vi.stubGlobal("fetch", globalFetch);
    await createPasskey({ authorizedFetch: fetcher as unknown as typeof fetch, name: "Work laptop" });
    expect(globalFetch).not.toHaveBeenCalled();
    expect(sent.map(({ path, method, body }) => [method, path, body])).toEqual([
      ["POST", "/admin/v1/account/passkeys/registration/options", {}],
      ["POST", "/admin/v1/account/passkeys/registration", { response: registration, name: "Work laptop" }],
    ]);
    expect(sent[1]!.headers.get("content-type")).toBe("application/json");
  });

  it("an authenticator that holds one of theirs already, or cannot verify the person, is said so", async () => {
    const { fetcher } = fakeApi({
      "/admin/v1/account/passkeys/registration/options": () => json(200, creationOptions),
    });
    const authorizedFetch = fetcher as unknown as typeof fetch;
    vi.mocked(startRegistration).mockRejectedValue(
      new WebAuthnError({
        message: "The authenticator was previously registered",
        code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
        cause: domError("InvalidStateError"),
      }),
    );
    expect(await rejection(createPasskey({ authorizedFetch }))).toMatchObject({
      reason: "refused",
      message: PASSKEY_MESSAGES.alreadyRegistered,
    });
    vi.mocked(startRegistration).mockRejectedValue(
      new WebAuthnError({
        message: "x",
        code: "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
        cause: domError("ConstraintError"),
      }),
    );
    expect(await rejection(createPasskey({ authorizedFetch }))).toMatchObject({
      reason: "unsupported",
      message: PASSKEY_MESSAGES.noUserVerification,
    });
    vi.mocked(startRegistration).mockRejectedValue(domError("AbortError"));
    expect(await rejection(createPasskey({ authorizedFetch }))).toMatchObject({
      reason: "cancelled",
      message: PASSKEY_MESSAGES.cancelledCreate,
    });
  });

  it("a session that ended (the token refused) rejects with the API's reason", async () => {
    const { fetcher } = fakeApi({
      "/admin/v1/account/passkeys/registration/options": () =>
        refusal(401, "UNAUTHORIZED", "This session has ended: sign in again."),
    });
    expect(await rejection(createPasskey({ authorizedFetch: fetcher as unknown as typeof fetch }))).toMatchObject({
      reason: "refused",
      httpStatus: 401,
      message: "This session has ended: sign in again.",
    });
  });
});
