import { SESSION_COOKIE_NAME, SIGNED_IN_COOKIE_NAME } from "@petstore/contract";
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";

/** A session cookie's value: 32 random bytes, 43 base64url characters. */
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** A new secret: 32 random bytes as 43 base64url characters (a session cookie, an invitation token, a token's tail). */
export const newSecret = (): string => randomBytes(32).toString("base64url");

/** The session cookie's value the request carries, when well-formed; else undefined. */
export function sessionCookieOf(req: Pick<Request, "headers">): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at === -1 || part.slice(0, at).trim() !== SESSION_COOKIE_NAME) continue;
    const value = part.slice(at + 1).trim();
    if (COOKIE_VALUE.test(value)) return value;
  }
  return undefined;
}

/**
 * Sets the session cookie: `__Host-` (Secure, Path=/, no Domain: this origin alone), HttpOnly (no script
 * reads it), SameSite=Strict (no other site's page sends it). It lasts until the session's absolute end,
 * so a browser restart keeps it; the server ends it sooner when idle or signed out.
 */
export function setSessionCookie(res: Response, value: string, expiresAt: Date, now: number): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now) / 1000));
  res.append(
    "Set-Cookie",
    `${SESSION_COOKIE_NAME}=${value}; Path=/; Max-Age=${maxAge}; Secure; HttpOnly; SameSite=Strict`,
  );
  // The admin app reads this one to know a token is worth asking for (SIGNED_IN_COOKIE_NAME).
  res.append("Set-Cookie", `${SIGNED_IN_COOKIE_NAME}=1; Path=/; Max-Age=${maxAge}; Secure; SameSite=Strict`);
}

/** Clears the session cookie in the browser (the server ends the session itself). */
export function clearSessionCookie(res: Response): void {
  res.append("Set-Cookie", `${SESSION_COOKIE_NAME}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict`);
  res.append("Set-Cookie", `${SIGNED_IN_COOKIE_NAME}=; Path=/; Max-Age=0; Secure; SameSite=Strict`);
}

/**
 * A short label of a browser from its User-Agent (`Firefox on Linux`), for the person's session list;
 * null when nothing is recognised. Never the raw header: it is free text the client chose.
 */
export function browserLabel(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /curl\//.test(userAgent)
            ? "curl"
            : undefined;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : undefined;
  if (!browser && !system) return null;
  return [browser ?? "A browser", system && `on ${system}`].filter(Boolean).join(" ");
}
