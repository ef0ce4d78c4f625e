import { ErrorBody, SESSION_TOKEN_TTL_SECONDS, SessionToken } from "@petstore/contract";

/** Said on the sign-in page when the session ended and the API gave no reason of its own. */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Sign in again.";

/** A new token is asked for this long before the one held expires (or halfway through a shorter one). */
export const RENEW_BEFORE_MS = 60_000;

/** An answer of the token endpoint, as the typed client returns it. */
export interface TokenAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * The token endpoint answered 401: the browser session is over (signed out, signed out elsewhere,
 * disabled, expired). `response` is that answer, so a request that needed the token can fail with it.
 */
export class SessionEnded extends Error {
  override name = "SessionEnded";
  constructor(
    readonly reason: string,
    readonly response: TokenAnswer,
  ) {
    super(reason);
  }
}

/**
 * The token endpoint answered something other than 201 or 401 (a 503, a 429, a 403 for a wrong
 * `Origin`): the session may well go on, this request cannot. Shaped like a failed response
 * (`status`, `body`, `headers`), so api/api-errors.ts describes and retries it as one.
 */
export class TokenRequestFailed extends Error {
  override name = "TokenRequestFailed";
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  constructor(answer: TokenAnswer) {
    super(`The session token request answered ${answer.status}.`);
    this.status = answer.status;
    this.body = answer.body;
    this.headers = answer.headers;
  }
}

export interface TokenManagerOptions {
  /** `POST /admin/v1/session/token` with the session cookie; the only place a token comes from. */
  requestToken: () => Promise<TokenAnswer>;
  /** Milliseconds since the epoch; tests move it (fake timers move `Date.now` too). */
  now?: () => number;
  renewBeforeMs?: number;
}

export interface TokenManager {
  /**
   * A token with at least a minute left: the one held, or a new one. Concurrent callers share one
   * request. Rejects with SessionEnded (401; from then on at once, without asking, until clear()),
   * TokenRequestFailed (another status) or the network's error.
   */
  token(): Promise<string>;
  /**
   * After the API refused `refused` with 401: a new token, asked for once however many requests were
   * refused at the same time; a token newer than `refused` is answered as it is.
   */
  renew(refused: string): Promise<string>;
  /**
   * Forgets the token (sign-out, or a sign-in that starts another session), and that the session
   * ended: the next call asks the token endpoint again.
   */
  clear(): void;
  /** Why the session ended, once the token endpoint has said 401; null before. */
  readonly endedReason: string | null;
  /** Called once each time the token endpoint answers 401. */
  onSessionEnded(listener: (reason: string) => void): () => void;
}

/** The API's own sentence when it gave one (a disabled person, a sign-out elsewhere), else ours. */
function reasonOf(answer: TokenAnswer): string {
  const parsed = ErrorBody.safeParse(answer.body);
  return parsed.success ? parsed.data.message : SESSION_ENDED_MESSAGE;
}

/**
 * How long a token may be used, in this browser's clock: its `expiresAt` is the server's clock, so the
 * lifetime is measured against the server's `Date` when it sent one, and never longer than ten minutes.
 */
function lifetimeMs(token: SessionToken, headers: Headers, now: number): number {
  const serverNow = Date.parse(headers.get("date") ?? "");
  const issuedAt = Number.isNaN(serverNow) ? now : serverNow;
  const lifetime = Date.parse(token.expiresAt) - issuedAt;
  return Math.min(Math.max(lifetime, 0), SESSION_TOKEN_TTL_SECONDS * 1000);
}

/**
 * The session's bearer token, held in memory only (never in `localStorage` or `sessionStorage`): a
 * `pst_` token bought with the HttpOnly session cookie, used until shortly before it expires, renewed
 * once when the API refuses it. A tab that makes a hundred requests in ten minutes asks for one token.
 */
export function createTokenManager({
  requestToken,
  now = Date.now,
  renewBeforeMs = RENEW_BEFORE_MS,
}: TokenManagerOptions): TokenManager {
  let held: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  /** Bumped by clear(): an answer to a request made before it is not kept. */
  let generation = 0;
  /** The token endpoint's 401: every caller gets it, without asking again, until clear(). */
  let ended: SessionEnded | null = null;
  const listeners = new Set<(reason: string) => void>();

  const ask = (): Promise<string> => {
    if (ended) return Promise.reject(ended);
    if (pending) return pending;
    const asked = generation;
    const settle = (answer: TokenAnswer): string => {
      if (answer.status === 401) {
        const reason = reasonOf(answer);
        if (asked === generation) {
          held = null;
          ended = new SessionEnded(reason, answer);
          for (const listener of [...listeners]) listener(reason);
        }
        throw new SessionEnded(reason, answer);
      }
      const parsed = answer.status === 201 ? SessionToken.safeParse(answer.body) : null;
      if (!parsed?.success) throw new TokenRequestFailed(answer);
      const receivedAt = now();
      const lifetime = lifetimeMs(parsed.data, answer.headers, receivedAt);
      const renewAt = receivedAt + lifetime - Math.min(renewBeforeMs, lifetime / 2);
      if (asked === generation) held = { token: parsed.data.token, renewAt };
      return parsed.data.token;
    };
    const request: Promise<string> = Promise.resolve()
      .then(requestToken)
      .then(settle)
      .finally(() => {
        if (pending === request) pending = null;
      });
    pending = request;
    return request;
  };

  const fresh = () => (held !== null && now() < held.renewAt ? held.token : null);

  return {
    token() {
      const current = fresh();
      return current !== null ? Promise.resolve(current) : ask();
    },
    renew(refused) {
      const current = fresh();
      if (current !== null && current !== refused) return Promise.resolve(current);
      if (held?.token === refused) held = null;
      return ask();
    },
    clear() {
      generation++;
      held = null;
      pending = null;
      ended = null;
    },
    get endedReason() {
      return ended?.reason ?? null;
    },
    onSessionEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
