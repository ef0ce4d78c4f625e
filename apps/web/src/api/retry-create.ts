import type { NewPet } from "@petstore/contract";
import { createContext, useCallback, useContext } from "react";
import { retryAfterDelayMs } from "./api-errors.js";
import { usePetstoreClient, type PetstoreClient } from "./petstore-client.js";
import type { RateLimitPacer } from "./rate-limit-pacer.js";
import { realSleep, type Sleep } from "./sleep.js";

/**
 * The retry policy of creates, for the Add pet form and the bulk import alike.
 *
 * A create carries an `Idempotency-Key`, so sending it again is safe: if the
 * first attempt was saved and only its answer was lost, the API replays that
 * answer (`Idempotent-Replayed: true`) instead of adding the pet twice. Only
 * failures that may pass are retried; a 4xx that says the request itself is
 * wrong would fail the same way again.
 */

/** Attempts per create, the first included. */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** Waits between attempts the API gave no `Retry-After` for: 0.5 s, 1 s, 2 s… */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/** Every answer createPet may give, as the typed client returns it. */
type CreatePetResponse = Awaited<ReturnType<PetstoreClient["pets"]["createPet"]["mutate"]>>;
/** The one answer that means the pet exists: first time or replayed. */
export type PetCreated = Extract<CreatePetResponse, { status: 201 }>;

/** Just what the policy needs of the client, so tests and callers can hand in the app's own. */
export type CreatePetClient = Pick<PetstoreClient["pets"], "createPet">;

export interface CreateRetryOptions {
  /** The same key on every attempt: that is what makes resending safe. */
  key: string;
  maxAttempts?: number;
  sleep?: Sleep;
  /** Told before each wait, e.g. to say "Retrying…". */
  onRetry?: (failure: unknown, nextAttempt: number) => void;
  /** A run of creates (the import) shares one, to wait for the rate-limit budget instead of meeting a 429. */
  pacer?: Pick<RateLimitPacer, "beforeRequest" | "observe">;
}

function isWorthResending(failure: unknown): boolean {
  if (typeof failure === "object" && failure !== null && "status" in failure && typeof failure.status === "number") {
    const { status } = failure;
    // 409: the first attempt with this key is still in flight; 408 and 429: asked to come back; 5xx: a fault.
    return status >= 500 || status === 409 || status === 429 || status === 408;
  }
  // A response that does not match the contract would not match it the second time either.
  if (failure instanceof Error && failure.name === "ZodError") return false;
  // Anything else was thrown by fetch: the connection failed, or the answer was cut off.
  return true;
}

function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS);
}

/**
 * Creates one pet, resending with the same key while the failure may pass,
 * at most `maxAttempts` times in all, waiting `Retry-After` when the API says
 * how long (capped), else backing off. Resolves with the 201; rejects with the
 * last failure, as the typed client reports it (a response or a thrown error),
 * for `describeFailure` to put into words.
 */
export async function createPetWithRetry(
  client: CreatePetClient,
  body: NewPet,
  { key, maxAttempts = DEFAULT_MAX_ATTEMPTS, sleep = realSleep, onRetry, pacer }: CreateRetryOptions,
): Promise<PetCreated> {
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    const sentIn = await pacer?.beforeRequest();
    let headers: Headers | undefined;
    try {
      const response = await client.createPet.mutate({ body, headers: { "idempotency-key": key } });
      headers = response.headers;
      if (response.status === 201) return response;
      failure = response;
    } catch (thrown) {
      failure = thrown;
    } finally {
      if (sentIn !== undefined) pacer?.observe(headers, sentIn);
    }
    if (attempt >= maxAttempts || !isWorthResending(failure)) throw failure;
    onRetry?.(failure, attempt + 1);
    await sleep(retryAfterDelayMs(failure) ?? backoffMs(attempt));
  }
}

/**
 * A fresh `Idempotency-Key`: a random UUID. `crypto.randomUUID` exists only in
 * secure contexts (https, localhost); an admin app served over plain http on
 * an intranet still has `getRandomValues`, so build the UUID from that there.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How the app waits between attempts; component tests supply one that records the wait and returns at once. */
export const CreateRetrySleepContext = createContext<Sleep>(realSleep);

/** `createPetWithRetry` bound to the app's client and its way of waiting. */
export function useCreatePetWithRetry() {
  const petstore = usePetstoreClient();
  const sleep = useContext(CreateRetrySleepContext);
  return useCallback(
    (body: NewPet, options: Omit<CreateRetryOptions, "sleep">) =>
      createPetWithRetry(petstore.pets, body, { sleep, ...options }),
    [petstore, sleep],
  );
}
