import cors from "cors";
import type { RequestHandler } from "express";
import { operationMethods, operationRequestHeaders, type ContractRoute } from "./contract-routes.js";

/** CORS for an admin app served from another origin: the listed origins, the contract's methods. */
export function crossOrigin(origins: readonly string[], routes: readonly ContractRoute[]): RequestHandler {
  return cors({
    origin: [...origins],
    methods: operationMethods(routes),
    allowedHeaders: operationRequestHeaders(routes),
    exposedHeaders: ["Link", "Location", "Retry-After", "X-Request-Id", "Deprecation", "Sunset", "Idempotent-Replayed"],
    maxAge: 600,
  });
}
