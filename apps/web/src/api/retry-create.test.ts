import type { NewPet, Pet } from "@petstore/contract";
import { describe, expect, it, vi } from "vitest";
import { describeFailure } from "./api-errors.js";
import { createPetstoreClient } from "./petstore-client.js";
import { fixedTokens } from "../test/fixed-tokens.js";
import { createPetWithRetry, newIdempotencyKey } from "./retry-create.js";

const REX: NewPet = { name: "Rex", categoryId: 4 };
const SAVED_REX: Pet = { id: 37, name: "Rex", categoryId: 4 };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
function error(status: number, code: string, headers: Record<string, string> = {}): Response {
  return json(status, { code, message: `The API's own words for ${code}.`, status }, headers);
}
const NETWORK_DOWN = () => {
  throw new TypeError("Failed to fetch");
};

/**
 * The app's real client over a network that answers from `script`, one entry
 * per attempt (the last repeats). Records each attempt's Idempotency-Key and
 * each wait, and waits no real time.
 */
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
  return { client: createPetstoreClient(fixedTokens("pst_test")).pets, keys, sleeps, sleep };
}

describe("createPetWithRetry", () => {
  it("sends the key once when the first attempt succeeds", async () => {
    const { client, keys, sleeps, sleep } = setUp([() => json(201, SAVED_REX)]);
    const created = await createPetWithRetry(client, REX, { key: "key-1", sleep });
    expect(created.body).toEqual(SAVED_REX);
    expect(keys).toEqual(["key-1"]);
    expect(sleeps).toEqual([]);
  });

  it("resends with the same key after a network failure, a 5xx, a 409 and a 429, then takes the replay", async () => {
    const { client, keys, sleep } = setUp([
      NETWORK_DOWN,
      () => error(503, "UNAVAILABLE"),
      () => error(409, "IDEMPOTENCY_KEY_IN_USE", { "Retry-After": "1" }),
      () => error(429, "RATE_LIMITED", { "Retry-After": "2" }),
      () => json(201, SAVED_REX, { "Idempotent-Replayed": "true" }),
    ]);
    const created = await createPetWithRetry(client, REX, { key: "key-1", maxAttempts: 5, sleep });
    expect(created.body).toEqual(SAVED_REX);
    expect(keys).toEqual(["key-1", "key-1", "key-1", "key-1", "key-1"]);
  });

  it("waits as long as Retry-After says (capped), and backs off when it says nothing", async () => {
    const { client, sleeps, sleep } = setUp([
      NETWORK_DOWN,
      () => error(500, "INTERNAL"),
      () => error(429, "RATE_LIMITED", { "Retry-After": "3" }),
      () => error(429, "RATE_LIMITED", { "Retry-After": "3600" }),
      () => json(201, SAVED_REX),
    ]);
    await createPetWithRetry(client, REX, { key: "key-1", maxAttempts: 5, sleep });
    expect(sleeps).toEqual([500, 1000, 3000, 30_000]);
  });

  it("stops at a 4xx that asking again will not change, and rejects with it", async () => {
    for (const [status, code] of [
      [400, "VALIDATION_ERROR"],
      [422, "IDEMPOTENCY_KEY_REUSED"],
    ] as const) {
      const { client, keys, sleep } = setUp([() => error(status, code), () => json(201, SAVED_REX)]);
      const failure = await createPetWithRetry(client, REX, { key: "key-1", sleep }).catch((thrown: unknown) => thrown);
      expect(failure).toMatchObject({ status, body: { code } });
      expect(keys).toHaveLength(1);
    }
  });

  it("a 401 is sent once more, with a renewed token and the same key, and no more", async () => {
    const { client, keys, sleep } = setUp([
      () => error(401, "UNAUTHORIZED"),
      () => error(401, "UNAUTHORIZED"),
      () => json(201, SAVED_REX),
    ]);
    const failure = await createPetWithRetry(client, REX, { key: "key-1", sleep }).catch((thrown: unknown) => thrown);
    expect(failure).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED" } });
    expect(keys).toEqual(["key-1", "key-1"]);
  });

  it("gives up after maxAttempts, rejecting with the last failure", async () => {
    const { client, keys, sleeps, sleep } = setUp([NETWORK_DOWN]);
    const onRetry = vi.fn();
    const failure = await createPetWithRetry(client, REX, { key: "key-1", maxAttempts: 4, sleep, onRetry }).catch(
      (thrown: unknown) => thrown,
    );
    expect(keys).toEqual(["key-1", "key-1", "key-1", "key-1"]);
    expect(sleeps).toHaveLength(3);
    expect(onRetry.mock.calls.map(([, nextAttempt]) => nextAttempt)).toEqual([2, 3, 4]);
    expect(describeFailure(failure)).toBe("The API could not be reached. Check your connection and try again.");
  });
});

describe("newIdempotencyKey", () => {
  it("is a fresh UUID each time", () => {
    const first = newIdempotencyKey();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(first);
  });

  it("is still a UUID where crypto.randomUUID is missing (plain http)", () => {
    const secureContextCrypto = globalThis.crypto;
    vi.stubGlobal("crypto", {
      getRandomValues: <T extends ArrayBufferView>(array: T) => secureContextCrypto.getRandomValues(array),
    });
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
