import type { Scope } from "./access-schemas.js";

/**
 * The credential a route takes. Every route of both contracts declares one:
 * - `bearer`: an API key or a `pst_` session token (`Authorization: Bearer`) whose scope covers `scope`;
 * - `key`: an API key only (configured or issued), never a session token: starting a browser session
 *   with a key (a token must not start a session that outlives its own);
 * - `personToken`: a `pst_` token of a signed-in person (staff member); a key, or a key session's
 *   token, is refused with 403;
 * - `cookie`: the session cookie (`__Host-petstore-session`) and an `Origin` header equal to the
 *   admin app's origin; no bearer;
 * - `none`: nothing before the handler: the route carries its own one-time secret (an invitation
 *   token, a WebAuthn challenge, the single sign-on `state`), and its failures spend the client
 *   address's failure budget.
 */
export type Credential = "bearer" | "key" | "personToken" | "cookie" | "none";
export const CREDENTIALS: readonly Credential[] = ["bearer", "key", "personToken", "cookie", "none"];

interface CommonRouteMetadata {
  /** The operation's tag in its contract's OpenAPI document: one of the tags that document lists. */
  tag: string;
  /**
   * An operation of the interface's document that goes beyond the spec: `x-stability: beta` in the
   * document, and its description must start "Beyond the spec:".
   */
  stability?: "beta";
  /** Request media types accepted besides `application/json`, for the same body (the document lists each). */
  alsoAccepts?: readonly string[];
  deprecation?: {
    /** When the deprecation took effect. */
    deprecatedAt: Date;
    /** When the route goes away. */
    sunsetAt: Date;
    /** Path of the route that replaces it, under the path prefix. */
    successor: string;
  };
}

/** A route that takes a bearer credential, of a scope. */
export interface ScopedRouteMetadata extends CommonRouteMetadata {
  credential: "bearer" | "key" | "personToken";
  /** The scope the key or token needs to call the operation. */
  scope: Scope;
}

/** A route that takes the session cookie, or nothing (its own one-time secret). */
export interface UnscopedRouteMetadata extends CommonRouteMetadata {
  credential: "cookie" | "none";
  scope?: never;
}

/**
 * What a route of either contract says besides its HTTP shape, in its
 * `metadata`, written `satisfies RouteMetadata` so the scope stays a literal.
 * The server and the documents read it from the route, so a new route brings
 * its own and no table elsewhere lists it: `OPERATION_CREDENTIALS` and
 * `OPERATION_SCOPES` are made of them, each OpenAPI document tags each
 * operation with the tag and gives it the security of its credential, and a
 * `deprecated` route's `deprecation` becomes its `Deprecation`, `Sunset` and
 * successor `Link` headers (RFC 9745, RFC 8594). The compiler refuses a
 * contract with a route that lacks its credential, scope or tag; so does
 * `operationCredentials` at run time.
 */
export type RouteMetadata = ScopedRouteMetadata | UnscopedRouteMetadata;
