import type { Pet } from "@petstore/contract";
import { describe, expect, it, vi } from "vitest";
import { fixedTokens } from "../test/fixed-tokens.js";
import { createPetstoreClient } from "./petstore-client.js";
import { isWorthResendingChange, sendChangeWithRetry } from "./retry-change.js";

const REX: Pet = { id: 1, name: "Rex", categoryId: 1, status: "pending" };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
function error(status: number, code: string, headers: Record<string, string> = {}): Response {
  return json(status, { code, message: `The API's own words for ${code}.`, status }, headers);
}

function setUp(script: Array<() => Response>) {
  const keys: (string | null)[] = [];
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    keys.push(new Headers(init.headers).get("idempotency-key"));
    const answer = script[Math.min(keys.length, script.length) - 1];
    if (!answer) throw new Error("no answer scripted");
    return answer();
  });
  const sleeps: number[] = [];
  const sleep = async (milliseconds: number) => {
    sleeps.push(milliseconds);
  };
  const client = createPetstoreClient(fixedTokens("pst_test")).petChanges;
  const send = () =>
    client.updatePet.mutate({
      params: { petId: 1 },
      body: [{ op: "replace", path: "/status", value: "pending" }],
      headers: { "idempotency-key": "key-1" },
    });
  return { send, keys, sleeps, sleep };
}

describe("sendChangeWithRetry", () => {
  it("resends with the same key after a network failure, a 5xx, a key in use and a 429", async () => {
    const { send, keys, sleeps, sleep } = setUp([
      () => {
        throw new TypeError("Failed to fetch");
      },
      () => error(503, "UNAVAILABLE"),
      () => error(409, "IDEMPOTENCY_KEY_IN_USE", { "Retry-After": "1" }),
      () => error(429, "RATE_LIMITED", { "Retry-After": "2" }),
      () => json(200, REX),
    ]);
    const answer = await sendChangeWithRetry(send, { sleep, maxAttempts: 5 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(REX);
    expect(keys).toEqual(["key-1", "key-1", "key-1", "key-1", "key-1"]);
    expect(sleeps).toEqual([500, 1000, 1000, 2000]);
  });

  it("does not resend a failed test (409 CONFLICT), nor a 403", async () => {
    for (const answer of [error(409, "CONFLICT"), error(403, "FORBIDDEN")]) {
      const { send, keys, sleep } = setUp([() => answer]);
      await expect(sendChangeWithRetry(send, { sleep })).rejects.toMatchObject({ status: answer.status });
      expect(keys).toHaveLength(1);
    }
  });

  it("gives up after its attempts, with the last failure", async () => {
    const { send, keys, sleep } = setUp([() => error(503, "UNAVAILABLE")]);
    await expect(sendChangeWithRetry(send, { sleep })).rejects.toMatchObject({ status: 503 });
    expect(keys).toHaveLength(3);
  });

  it("tells a key in use from a conflict", () => {
    expect(
      isWorthResendingChange({
        status: 409,
        body: { code: "IDEMPOTENCY_KEY_IN_USE", message: "in flight", status: 409 },
      }),
    ).toBe(true);
    expect(
      isWorthResendingChange({
        status: 409,
        body: { code: "CONFLICT", message: "status is sold, not available.", status: 409 },
      }),
    ).toBe(false);
  });
});
