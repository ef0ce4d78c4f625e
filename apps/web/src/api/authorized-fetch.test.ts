import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenManager, SESSION_ENDED_MESSAGE } from "./token-manager.js";
import { fakeSession, fakeToken } from "../test/fake-session.js";
import { errorResponse, jsonResponse } from "../test/responses.js";
import { authorizedFetch, requestSessionToken } from "./authorized-fetch.js";
import { createPetstoreClient } from "./petstore-client.js";

/** The app's real clients and token manager over a fake API with one browser session. */
function setUp(answer: (request: Request, attempt: number) => Response = () => jsonResponse(200, [])) {
  const session = fakeSession({
    signedInAs: { keyId: null, staffId: 3, name: "Sam", scope: "write", expiresAt: null },
  });
  const seen: Request[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = new Request(typeof input === "string" ? new URL(input, window.location.href) : input, init);
    const answered = await session.answer(request.clone());
    if (answered) return answered;
    seen.push(request);
    return session.authorize(request) ?? answer(request, seen.length);
  });
  const tokens = createTokenManager({ requestToken: requestSessionToken });
  return { session, seen, tokens, client: createPetstoreClient(tokens) };
}

describe("the clients' token handling", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-25T10:00:00.000Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("puts the session's token on every request, and asks for one per ten minutes, not per request", async () => {
    const { session, seen, client } = setUp();
    for (let minute = 0; minute < 9; minute++) {
      await Promise.all([
        client.pets.listPets.query({ query: { limit: 1 } }),
        client.pets.listPets.query({ query: { limit: 2 } }),
      ]);
      vi.setSystemTime(Date.now() + 60_000);
    }
    expect(seen).toHaveLength(18);
    expect(new Set(seen.map((request) => request.headers.get("authorization")))).toEqual(
      new Set([`Bearer ${fakeToken(1)}`]),
    );
    expect(session.state.tokenRequests).toBe(1);
    // The token's last minute: the next request gets a new one first.
    vi.setSystemTime(Date.now() + 30_000);
    await client.pets.listPets.query({ query: { limit: 1 } });
    expect(seen.at(-1)!.headers.get("authorization")).toBe(`Bearer ${fakeToken(2)}`);
    expect(session.state.tokenRequests).toBe(2);
  });

  it("asks for the token with the cookie and no bearer; the browser adds Origin to the POST", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(input), init });
      return jsonResponse(201, { token: fakeToken(1), expiresAt: new Date(Date.now() + 600_000).toISOString() });
    });
    await requestSessionToken();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/admin/v1/session/token");
    expect(calls[0]!.init.method).toBe("POST");
    expect(calls[0]!.init.credentials).toBe("same-origin");
    expect(new Headers(calls[0]!.init.headers).get("authorization")).toBeNull();
  });

  it("a refused token is renewed once and the request sent again with the new one", async () => {
    const { session, seen, client } = setUp();
    await client.pets.listPets.query({ query: { limit: 1 } });
    session.forgetTokens();
    const answer = await client.pets.listPets.query({ query: { limit: 1 } });
    expect(answer.status).toBe(200);
    expect(seen.map((request) => request.headers.get("authorization"))).toEqual([
      `Bearer ${fakeToken(1)}`,
      `Bearer ${fakeToken(1)}`,
      `Bearer ${fakeToken(2)}`,
    ]);
  });

  it("a create retried after a renewal keeps its Idempotency-Key", async () => {
    const { seen, client } = setUp((request, attempt) =>
      attempt === 1
        ? errorResponse(401, "UNAUTHORIZED", "The session token is not valid.")
        : jsonResponse(201, { id: 1, name: "Rex", categoryId: 1 }),
    );
    const answer = await client.pets.createPet.mutate({
      body: { name: "Rex", categoryId: 1 },
      headers: { "idempotency-key": "k-1" },
    });
    expect(answer.status).toBe(201);
    expect(seen.map((request) => request.headers.get("idempotency-key"))).toEqual(["k-1", "k-1"]);
    expect(await seen[1]!.json()).toEqual({ name: "Rex", categoryId: 1 });
  });

  it("when the renewal is refused too, the request fails with the token endpoint's 401 and the session ends with its reason", async () => {
    const { session, seen, client, tokens } = setUp();
    const ended = vi.fn();
    tokens.onSessionEnded(ended);
    await client.pets.listPets.query({ query: { limit: 1 } });
    session.end("Your account was disabled.");
    const answer = await client.pets.listPets.query({ query: { limit: 1 } });
    expect(answer.status).toBe(401);
    expect(ended).toHaveBeenCalledWith("Your account was disabled.");
    expect(seen).toHaveLength(2);
  });

  it("a request that already carries Authorization is sent as it is (a key's sign-in)", async () => {
    const { seen, client, session } = setUp((request) =>
      request.headers.get("authorization") === "Bearer psk_given"
        ? jsonResponse(200, [])
        : errorResponse(401, "UNAUTHORIZED", "no"),
    );
    session.authorize = () => null;
    await client.pets.listPets.query({ query: { limit: 1 }, extraHeaders: { Authorization: "Bearer psk_given" } });
    expect(seen.map((request) => request.headers.get("authorization"))).toEqual(["Bearer psk_given"]);
    expect(session.state.tokenRequests).toBe(0);
  });

  it("authorizedFetch does the same for calls outside the typed clients", async () => {
    const { session, seen, tokens } = setUp();
    const call = authorizedFetch(tokens);
    expect((await call("/admin/v1/account", { method: "GET" })).status).toBe(200);
    session.forgetTokens();
    expect((await call("/admin/v1/account", { method: "GET" })).status).toBe(200);
    expect(seen.map((request) => request.headers.get("authorization"))).toEqual([
      `Bearer ${fakeToken(1)}`,
      `Bearer ${fakeToken(1)}`,
      `Bearer ${fakeToken(2)}`,
    ]);
    session.end();
    const refused = await call("/admin/v1/account", { method: "GET" });
    expect(refused.status).toBe(401);
    expect(tokens.endedReason).toBe(SESSION_ENDED_MESSAGE);
  });
});
