import { timingSafeEqual } from "node:crypto";
import { Router } from "express";
import { bearerToken, secretDigest } from "../access/bearer.js";
import { refuseCredential } from "../access/credential-failures.js";
import { unlimited, type RequestLimiter } from "../access/rate-limit.js";
import { HttpError } from "../base/http-error.js";
import { notFound } from "../http/errors.js";
import type { Metrics } from "./metrics.js";

/**
 * `GET /metrics` in Prometheus text, for a bearer of `token` only; compared as
 * SHA-256 digests in constant time. No token configured: the JSON 404, as for
 * any unknown path. Mount it outside /v1, so scrapes spend no API key's budget.
 */
export function metricsEndpoint(
  metrics: Pick<Metrics, "registry" | "limitRejected">,
  token: string | undefined,
  /** Wrong or missing tokens spend the client address's failure budget, as wrong API keys do. */
  authFailures: RequestLimiter = unlimited,
): Router {
  const router = Router();
  if (token === undefined) {
    router.all("/metrics", notFound);
    return router;
  }
  const expected = secretDigest(token);
  router.get("/metrics", async (req, res, next) => {
    const presented = bearerToken(req.headers.authorization);
    if (presented === undefined || !timingSafeEqual(secretDigest(presented), expected)) {
      refuseCredential({
        authFailures,
        clientAddress: req.ip ?? "unknown",
        onRejected: metrics.limitRejected,
        tooManyReason: "Too many requests with a missing or invalid token from this address",
        unauthorized: () =>
          new HttpError(
            401,
            "UNAUTHORIZED",
            "The metrics need the metrics token: send it as Authorization: Bearer <METRICS_TOKEN>.",
            {
              "WWW-Authenticate": 'Bearer realm="metrics"',
            },
          ),
      }).then(next, next);
      return;
    }
    try {
      const body = await metrics.registry.metrics();
      res.set({ "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" }).send(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
