import {
  SESSION_TOKEN_PREFIX,
  SESSION_TOKEN_TTL_SECONDS,
  type Scope,
  type Session,
  type StaffMember,
} from "@petstore/contract";
import type { Request, Response } from "express";
import { secretDigest } from "../access/bearer.js";
import type { Caller } from "../access/caller.js";
import { rateLimited, refuseCredential } from "../access/credential-failures.js";
import { isConfiguredKeyId, type ConfiguredKeys } from "../access/configured-keys.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { unlimited, type LimitName, type RequestLimiter } from "../access/rate-limit.js";
import { RateLimitFields } from "../access/rate-limit-headers.js";
import type { AuditContext } from "../activity/audit-event.js";
import { HttpError } from "../base/http-error.js";
import { browserLabel, clearSessionCookie, newSecret, sessionCookieOf, setSessionCookie } from "./session-cookie.js";
import type { SessionRecord, StaffRepository } from "./staff-repository.js";

const digestOf = (secret: string) => secretDigest(secret).toString("hex");

export interface StaffSessionsOptions {
  repository: StaffRepository;
  issuedKeys: IssuedKeys;
  /** API_KEYS as callers: a key session of a configured key this process does not hold has lost its key. */
  configuredKeys: ConfiguredKeys;
  /** The admin app's origin (Config.adminOrigin); undefined: the request's own scheme and host. */
  adminOrigin: string | undefined;
  /** Config.sessions. */
  idleMs: number;
  maxMs: number;
  /** The client address's failure budget, which the sign-in endpoints share. */
  authFailures: RequestLimiter;
  /** Tokens bought per session (AbuseLimits.sessionTokens, TOKENS_PER_SESSION_PER_MIN); not given: not counted. */
  sessionTokens?: RequestLimiter | undefined;
  onRejected?: ((limit: LimitName) => void) | undefined;
  /** The wall clock (ms since the epoch); tests move it. */
  now?: () => number;
}

/** A session that is still usable at a moment, or why not. */
export type LiveSession = { session: SessionRecord; staff: StaffMember | null } | { refused: string };

/**
 * Browser sessions: started at a sign-in (a new cookie every time), read from the cookie, spent on
 * short-lived bearer tokens, ended on the server. The passkey and single sign-on ceremonies start a
 * person's session with `startStaffSession`.
 */
export class StaffSessions {
  readonly repository: StaffRepository;
  private readonly issuedKeys: IssuedKeys;
  private readonly options: StaffSessionsOptions;
  readonly now: () => number;

  constructor(options: StaffSessionsOptions) {
    this.options = options;
    this.repository = options.repository;
    this.issuedKeys = options.issuedKeys;
    this.now = options.now ?? Date.now;
  }

  /** The origin a cookie request's `Origin` must equal: ADMIN_ORIGIN, else the request's own scheme and host. */
  expectedOrigin(req: Pick<Request, "protocol" | "get">): string {
    return this.options.adminOrigin ?? `${req.protocol}://${req.get("host") ?? ""}`;
  }

  /** The 403 of a cookie request without the admin app's `Origin` (a cross-site request, or none at all), else undefined. */
  originRefusal(req: Request): HttpError | undefined {
    const origin = req.headers.origin;
    if (origin !== undefined && origin === this.expectedOrigin(req)) return undefined;
    return new HttpError(
      403,
      "FORBIDDEN",
      origin === undefined
        ? "This request needs an Origin header: a browser session answers only the admin app's own origin."
        : "This request came from another origin: a browser session answers only the admin app's own origin.",
    );
  }

  /**
   * Spends one unit of the client address's failure budget (a failed sign-in, an unknown invitation or
   * cookie): the `unauthorized` error within the budget, a 429 past it. Throw what it returns.
   */
  failure(req: Request, unauthorized: () => HttpError): Promise<HttpError> {
    return refuseCredential({
      authFailures: this.options.authFailures,
      clientAddress: req.ip ?? "unknown",
      onRejected: this.options.onRejected,
      unauthorized,
      tooManyReason: "Too many failed sign-in attempts from this address",
    });
  }

  /**
   * Starts a person's browser session: a new cookie (the old session, if the browser held one, ends),
   * the person's lastSignInAt, and `staff.signed_in` with `detail` (how: `passkey` or `sso`). For the
   * passkey and single sign-on ceremonies, once they have verified the person; a disabled person is refused (403).
   * Answers who is signed in, as getSession would.
   */
  async startStaffSession(
    req: Request,
    res: Response,
    staff: StaffMember,
    detail: "passkey" | "sso",
  ): Promise<Session> {
    if (staff.disabledAt !== null) throw new HttpError(403, "FORBIDDEN", "This account is disabled.");
    const actor = { keyId: null, staffId: staff.id, name: staff.name };
    const session = await this.start(
      req,
      res,
      { staffId: staff.id, keyId: null, endsBy: null },
      {
        action: "staff.signed_in",
        detail,
        target: { type: "staff", id: staff.id, label: staff.name },
        audit: { actor, requestId: req.id || null, clientAddress: req.ip ?? null },
      },
    );
    return {
      keyId: null,
      staffId: staff.id,
      name: staff.name,
      scope: staff.role,
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  /** Starts a key's browser session (POST /session/start with the key as bearer), with `key.signed_in`. */
  async startKeySession(req: Request, res: Response, key: Caller, audit: AuditContext): Promise<Session> {
    if (key.keyId === null || key.sessionId !== undefined)
      throw new HttpError(403, "FORBIDDEN", "A browser session starts with an API key.");
    const session = await this.start(
      req,
      res,
      { staffId: null, keyId: key.keyId, endsBy: key.expiresAt },
      {
        action: "key.signed_in",
        detail: null,
        target: { type: "key", id: this.keyTargetId(key.keyId), label: key.name },
        audit,
      },
    );
    return {
      keyId: key.keyId,
      staffId: null,
      name: key.name,
      scope: key.scope,
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  private async start(
    req: Request,
    res: Response,
    owner: { staffId: number | null; keyId: string | null; endsBy: Date | null },
    signIn: Parameters<StaffRepository["createSession"]>[1],
  ): Promise<SessionRecord> {
    const now = this.now();
    // A new value at every sign-in: a cookie planted before it (session fixation) is worth nothing after.
    const previous = sessionCookieOf(req);
    if (previous) await this.endByCookie(previous);
    const secret = newSecret();
    const maxEnd = now + this.options.maxMs;
    const expiresAt = new Date(owner.endsBy ? Math.min(maxEnd, owner.endsBy.getTime()) : maxEnd);
    const session = await this.repository.createSession(
      {
        digest: digestOf(secret),
        staffId: owner.staffId,
        keyId: owner.keyId,
        createdAt: new Date(now),
        expiresAt,
        userAgent: browserLabel(req.headers["user-agent"]),
      },
      signIn,
    );
    setSessionCookie(res, secret, expiresAt, now);
    return session;
  }

  /** The session of the request's cookie if it is usable now: not ended, not past its idle or absolute end, its person or key still valid. */
  async live(req: Request): Promise<LiveSession> {
    const cookie = sessionCookieOf(req);
    if (!cookie) return { refused: "Sign in first: this browser has no session." };
    const session = await this.repository.findSession(digestOf(cookie));
    const now = this.now();
    if (!session || session.endedAt !== null) return { refused: "This session has ended: sign in again." };
    if (session.expiresAt.getTime() <= now || session.lastActiveAt.getTime() + this.options.idleMs <= now) {
      return { refused: "This session has expired: sign in again." };
    }
    if (session.staffId !== null) {
      const staff = await this.repository.getStaff(session.staffId);
      if (!staff || staff.disabledAt !== null) return { refused: "This account is disabled." };
      return { session, staff };
    }
    // keyScope reads the configured keys' ids, known once the fingerprint salt is read.
    await this.options.configuredKeys.ready();
    if (!this.keyScope(session.keyId))
      return { refused: "The key this session was started with has been revoked or has expired." };
    return { session, staff: null };
  }

  /**
   * A key session's key: its scope and expiry now, or undefined when it is revoked, expired or not in this
   * process's API_KEYS (a configured key is known by its fingerprint, so a rotated-out key's sessions end
   * here, whatever position the new keys take). Call after `configuredKeys.ready()` (live() does).
   */
  private keyScope(keyId: string | null): { scope: Scope; expiresAt: Date | null; name: string } | undefined {
    if (keyId === null) return undefined;
    if (isConfiguredKeyId(keyId)) {
      const configured = this.options.configuredKeys.byKeyId(keyId);
      return configured && { scope: "admin", expiresAt: null, name: configured.name };
    }
    const key = this.issuedKeys.keyById(Number(keyId));
    return key && { scope: key.scope, expiresAt: key.expiresAt, name: key.name };
  }

  /**
   * A bearer token for the request's session (POST /session/token): `pst_` and 43 base64url characters,
   * valid SESSION_TOKEN_TTL_SECONDS (never past the session's end, nor its key's), of the person's role
   * now (a key session: the key's scope now). Moves the session's idle clock. Usable at once here, and
   * on other API processes at once too (they look an unknown token up; a token bought moves no process's
   * key-set version, so none of them reloads every key for it). At most TOKENS_PER_SESSION_PER_MIN a
   * minute per session: every answer carries the `"session-tokens"` RateLimit fields (set on `res`),
   * past the budget a 429 before anything is stored.
   */
  async mintToken(
    live: { session: SessionRecord; staff: StaffMember | null },
    res?: Response,
  ): Promise<{ token: string; expiresAt: string }> {
    const { session, staff } = live;
    const budget = this.options.sessionTokens ?? unlimited;
    if (budget !== unlimited) {
      const count = await budget.count(`session-${session.id}`);
      const fields = new RateLimitFields("session-tokens", budget);
      if (!count.allowed) {
        this.options.onRejected?.("session_tokens");
        throw rateLimited(count.resetSeconds, "Too many tokens bought for this session").withHeaders(
          fields.headers(count),
        );
      }
      if (res) fields.set(res, count);
    }
    const now = this.now();
    const key = staff ? undefined : this.keyScope(session.keyId);
    const scope = staff ? staff.role : key!.scope;
    const ends = [now + SESSION_TOKEN_TTL_SECONDS * 1000, session.expiresAt.getTime(), now + this.options.idleMs];
    if (key?.expiresAt) ends.push(key.expiresAt.getTime());
    const expiresAt = new Date(Math.min(...ends));
    const token = SESSION_TOKEN_PREFIX + newSecret();
    const digest = digestOf(token);
    await this.repository.createToken({ digest, sessionId: session.id, scope, createdAt: new Date(now), expiresAt });
    this.issuedKeys.added({
      id: 0,
      name: staff ? staff.name : key!.name,
      scope,
      secretDigest: digest,
      expiresAt,
      token: { sessionId: session.id, staffId: session.staffId, keyId: session.keyId },
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** A key's id as an event's target id: an issued key's number, or a configured key's position in API_KEYS (0: not ours). */
  keyTargetId(keyId: string): number {
    return isConfiguredKeyId(keyId) ? (this.options.configuredKeys.positionOf(keyId) ?? 0) : Number(keyId);
  }

  /** Ends the session of a cookie value, if any, here and (within 2 s) everywhere. */
  async endByCookie(cookie: string): Promise<SessionRecord | null> {
    const session = await this.repository.findSession(digestOf(cookie));
    if (!session || session.endedAt !== null) return null;
    const ended = await this.repository.endSession(session.id, null, null);
    this.issuedKeys.endedSessions({ sessionId: session.id });
    return ended;
  }

  /** Signs the request's browser out: its session ends on the server; the cookie is cleared. */
  async signOut(req: Request, res: Response): Promise<boolean> {
    const cookie = sessionCookieOf(req);
    clearSessionCookie(res);
    if (!cookie) return false;
    const live = await this.live(req);
    await this.endByCookie(cookie);
    return !("refused" in live);
  }
}
