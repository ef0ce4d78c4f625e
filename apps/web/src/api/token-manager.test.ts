import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createTokenManager,
  SESSION_ENDED_MESSAGE,
  SessionEnded,
  TokenRequestFailed,
  type TokenAnswer,
} from "./token-manager.js";

const START = Date.parse("2026-11-25T10:00:00.000Z");
const MINUTE = 60_000;

function tokenOf(n: number): string {
  return `pst_${String(n).padStart(43, "A")}`;
}

/** The token endpoint: each call answers a new token valid ten minutes from the (fake) clock, or what `next` says. */
function tokenEndpoint() {
  let issued = 0;
  const endpoint = {
    calls: 0,
    next: null as TokenAnswer | null,
    request: vi.fn(async (): Promise<TokenAnswer> => {
      endpoint.calls++;
      await Promise.resolve();
      if (endpoint.next) return endpoint.next;
      issued++;
      return {
        status: 201,
        body: { token: tokenOf(issued), expiresAt: new Date(Date.now() + 10 * MINUTE).toISOString() },
        headers: new Headers({ date: new Date(Date.now()).toUTCString() }),
      };
    }),
  };
  return endpoint;
}

const refusal = (message: string): TokenAnswer => ({
  status: 401,
  body: { code: "UNAUTHORIZED", message, status: 401 },
  headers: new Headers(),
});

describe("the session token manager", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for one token per ten minutes however many requests need one", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenManager({ requestToken: endpoint.request });
    // A request every two seconds for nine minutes.
    for (let elapsed = 0; elapsed < 9 * MINUTE; elapsed += 2000) {
      expect(await tokens.token()).toBe(tokenOf(1));
      await vi.advanceTimersByTimeAsync(2000);
    }
    expect(endpoint.calls).toBe(1);
    // In the token's last minute the next request gets a new one, before the old one runs out.
    await vi.advanceTimersByTimeAsync(5000);
    expect(await tokens.token()).toBe(tokenOf(2));
    expect(endpoint.calls).toBe(2);
  });

  it("concurrent callers share one token request", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenManager({ requestToken: endpoint.request });
    const all = await Promise.all(Array.from({ length: 20 }, () => tokens.token()));
    expect(new Set(all)).toEqual(new Set([tokenOf(1)]));
    expect(endpoint.calls).toBe(1);
  });

  it("renews once for many requests refused with the same token, and keeps a newer one", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenManager({ requestToken: endpoint.request });
    const first = await tokens.token();
    const renewed = await Promise.all([tokens.renew(first), tokens.renew(first), tokens.renew(first)]);
    expect(renewed).toEqual([tokenOf(2), tokenOf(2), tokenOf(2)]);
    // A request refused with the old token after the renewal gets the new one without asking again.
    expect(await tokens.renew(first)).toBe(tokenOf(2));
    expect(endpoint.calls).toBe(2);
    // Refused with the new one: ask again.
    expect(await tokens.renew(tokenOf(2))).toBe(tokenOf(3));
  });

  it("trusts the server's clock for the lifetime, not this browser's", async () => {
    const endpoint = tokenEndpoint();
    // The browser's clock is an hour ahead of the server's: expiresAt looks past, but the token has ten minutes.
    endpoint.request.mockImplementationOnce(async () => ({
      status: 201,
      body: { token: tokenOf(9), expiresAt: new Date(START - 50 * MINUTE).toISOString() },
      headers: new Headers({ date: new Date(START - 60 * MINUTE).toUTCString() }),
    }));
    const tokens = createTokenManager({ requestToken: endpoint.request });
    expect(await tokens.token()).toBe(tokenOf(9));
    await vi.advanceTimersByTimeAsync(8 * MINUTE);
    expect(await tokens.token()).toBe(tokenOf(9));
    expect(endpoint.request).toHaveBeenCalledTimes(1);
  });

  it("a 401 from the token endpoint ends the session with the API's reason, once for all callers", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenManager({ requestToken: endpoint.request });
    const ended = vi.fn();
    tokens.onSessionEnded(ended);
    const first = await tokens.token();
    endpoint.next = refusal("Your account was disabled.");

    const outcomes = await Promise.allSettled([tokens.renew(first), tokens.renew(first)]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as SessionEnded;
      expect(error).toBeInstanceOf(SessionEnded);
      expect(error.reason).toBe("Your account was disabled.");
      expect(error.response.status).toBe(401);
    }
    expect(ended).toHaveBeenCalledTimes(1);
    expect(ended).toHaveBeenCalledWith("Your account was disabled.");
    expect(tokens.endedReason).toBe("Your account was disabled.");

    // Requests still in flight are refused at once, without asking again, until a sign-in clears it.
    await expect(tokens.renew(first)).rejects.toBeInstanceOf(SessionEnded);
    await expect(tokens.token()).rejects.toBeInstanceOf(SessionEnded);
    expect(endpoint.calls).toBe(2);
    endpoint.next = null;
    tokens.clear();
    expect(tokens.endedReason).toBeNull();
    expect(await tokens.token()).toBe(tokenOf(2));
  });

  it("says the session ended in its own words when the 401 has no Error body", async () => {
    const endpoint = tokenEndpoint();
    endpoint.next = { status: 401, body: "nope", headers: new Headers() };
    const tokens = createTokenManager({ requestToken: endpoint.request });
    await expect(tokens.token()).rejects.toMatchObject({ reason: SESSION_ENDED_MESSAGE });
  });

  it("another failure is the request's, not the session's: nothing ends, and the next call asks again", async () => {
    const endpoint = tokenEndpoint();
    const ended = vi.fn();
    endpoint.next = {
      status: 503,
      body: { code: "UNAVAILABLE", message: "down", status: 503 },
      headers: new Headers({ "retry-after": "2" }),
    };
    const tokens = createTokenManager({ requestToken: endpoint.request });
    tokens.onSessionEnded(ended);
    const failure = await tokens.token().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TokenRequestFailed);
    expect(failure).toMatchObject({ status: 503 });
    expect(ended).not.toHaveBeenCalled();
    endpoint.next = null;
    expect(await tokens.token()).toBe(tokenOf(1));
  });

  it("clear() forgets the token, and an answer to a request made before it is not kept", async () => {
    const endpoint = tokenEndpoint();
    const tokens = createTokenManager({ requestToken: endpoint.request });
    await tokens.token();
    tokens.clear();
    const during = tokens.token();
    tokens.clear();
    await during;
    expect(await tokens.token()).toBe(tokenOf(3));
    expect(endpoint.calls).toBe(3);
  });
});
