import type { Scope } from "./access-schemas.js";

/**
 * What a route of either contract says besides its HTTP shape, in its
 * `metadata`, written `satisfies RouteMetadata` so the scope stays a literal.
 * The server and the documents read it from the route, so a new route brings
 * its own and no table elsewhere lists it: `OPERATION_SCOPES` is made of the
 * scopes, each OpenAPI document tags each operation with the tag, and a
 * `deprecated` route's `deprecation` becomes its `Deprecation`, `Sunset` and
 * successor `Link` headers (RFC 9745, RFC 8594). The compiler refuses a
 * contract with a route that lacks its scope or tag.
 */
export interface RouteMetadata {
  /** The scope a key needs to call the operation. */
  scope: Scope;
  /** The operation's tag in its contract's OpenAPI document: one of the tags that document lists. */
  tag: string;
  deprecation?: {
    /** When the deprecation took effect. */
    deprecatedAt: Date;
    /** When the route goes away. */
    sunsetAt: Date;
    /** Path of the route that replaces it, under the path prefix. */
    successor: string;
  };
}
