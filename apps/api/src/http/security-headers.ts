import type { RequestHandler } from "express";

/** Response headers set together; computed once at start, set with one `res.set` per response. */
export type HeaderSet = Readonly<Record<string, string>>;

/** The headers each kind of response carries (docs/interface.md, "response headers"). */
export interface ResponseHeaderSets {
  /** Every JSON response: all of `/v1` (errors too), the probes, the JSON 404 anywhere. */
  api: HeaderSet;
  /** The admin app's `index.html` and the unhashed files beside it (favicon): revalidated on every load. */
  appPage: HeaderSet;
  /** The admin app's content-hashed files: a new build has new names, so they never change. */
  appAsset: HeaderSet;
  /** Swagger UI at `/docs`. */
  docs: HeaderSet;
}

const HSTS = "max-age=31536000; includeSubDomains";

const csp = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");

/**
 * One set per kind of response, each complete on its own: every set names the
 * same headers, so a page's set replaces the API set wholesale. Page-only
 * headers (X-XSS-Protection, Origin-Agent-Cluster, ...) are left out: a JSON
 * body is never rendered, and the pages' CSP already covers what they did.
 * TLS ends at the proxy in front of us; HSTS is only announced in production,
 * so a plain-HTTP development host is never pinned to HTTPS.
 */
export function responseHeaderSets({
  production,
  docsServerUrls = [],
  appStyleSources = [],
}: {
  production: boolean;
  /** The hashes of the admin app's inline stylesheet (web-app.ts, `inlineStyleSources`). */
  appStyleSources?: readonly string[];
  /** The OpenAPI document's servers: Swagger UI's "Try it out" may call them. */
  docsServerUrls?: readonly string[];
}): ResponseHeaderSets {
  const common = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    ...(production ? { "Strict-Transport-Security": HSTS } : {}),
  };
  const appCsp = csp({
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    // The build inlines one stylesheet in index.html, allowed by its hash; React sets style properties
    // through the CSSOM, which CSP allows.
    "style-src": ["'self'", ...appStyleSources],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
  });
  // A relative server (`/v1`, development) is the page's own origin: 'self' covers it.
  const serverOrigins = [
    ...new Set(docsServerUrls.filter((url) => URL.canParse(url)).map((url) => new URL(url).origin)),
  ];
  const docsCsp = csp({
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    // swagger-ui-express's page carries two inline <style> blocks and an inline style attribute on its SVG sprite.
    "style-src": ["'self'", "'unsafe-inline'"],
    // Swagger UI's stylesheet draws its icons as data: SVGs.
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...serverOrigins],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
  });
  return {
    api: {
      "Cache-Control": "no-store",
      "Content-Security-Policy": csp({ "default-src": ["'none'"], "frame-ancestors": ["'none'"] }),
      ...common,
    },
    appPage: { "Cache-Control": "no-cache", "Content-Security-Policy": appCsp, ...common },
    appAsset: { "Cache-Control": "public, max-age=31536000, immutable", "Content-Security-Policy": appCsp, ...common },
    // Swagger UI's files are not content-hashed: revalidate them.
    docs: { "Cache-Control": "no-cache", "Content-Security-Policy": docsCsp, ...common },
  };
}

/**
 * Sets one precomputed set on the response; a later handler that serves
 * something else sets its own. Straight `setHeader` calls over a list made
 * once: Express's `res.set(object)` walks the object and type-checks every
 * value on every response.
 */
export function setHeaders(set: HeaderSet): RequestHandler {
  const entries = Object.entries(set);
  return (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    next();
  };
}
