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
  "X-Total-Count",
];

/**
 * CORS for an admin app served from another origin: the listed origins, the
 * contract's methods. A request without `Origin` that is not a preflight (every
 * same-origin or non-browser request) gets `Vary: Origin` only, set directly:
 * no `Access-Control-*` header, which a browser reads on a cross-origin
 * response only, and a cross-origin request always carries `Origin` (Fetch
 * standard). `cors` itself would add `Access-Control-Expose-Headers` (160
 * bytes) to every such response. The rest goes through `cors`.
 */
export function crossOrigin(origins: readonly string[], routes: readonly ContractRoute[]): RequestHandler {
  const handleCors = cors({
    origin: [...origins],
    methods: operationMethods(routes),
    allowedHeaders: operationRequestHeaders(routes),
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req, res, next) => {
    // A Vary set before is merged by cors (with the `vary` package's rules).
    if (req.headers.origin !== undefined || req.method === "OPTIONS" || res.hasHeader("Vary"))
      return handleCors(req, res, next);
    res.setHeader("Vary", "Origin");
    next();
  };
}
