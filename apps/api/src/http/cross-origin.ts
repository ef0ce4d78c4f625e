import cors from "cors";
import type { RequestHandler } from "express";
import { operationMethods, operationRequestHeaders, type ContractRoute } from "./contract-routes.js";

const EXPOSED_HEADERS = [
  "Link",
  "Location",
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
  "X-Request-Id",
  "Deprecation",
  "Sunset",
  "Idempotent-Replayed",
];

/**
 * CORS for an admin app served from another origin: the listed origins, the
 * contract's methods. A request without `Origin` that is not a preflight (every
 * same-origin or non-browser request) gets what `cors` would give it, set
 * directly: `Access-Control-Expose-Headers` and `Vary: Origin`, never an allowed
 * origin. The rest goes through `cors`.
 */
export function crossOrigin(origins: readonly string[], routes: readonly ContractRoute[]): RequestHandler {
  const handleCors = cors({
    origin: [...origins],
    methods: operationMethods(routes),
    allowedHeaders: operationRequestHeaders(routes),
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  const exposed = EXPOSED_HEADERS.join(",");
  return (req, res, next) => {
    // A Vary set before is merged by cors (with the `vary` package's rules).
    if (req.headers.origin !== undefined || req.method === "OPTIONS" || res.hasHeader("Vary")) return handleCors(req, res, next);
    res.setHeader("Access-Control-Expose-Headers", exposed);
    res.setHeader("Vary", "Origin");
    next();
  };
}
