import { Router } from "express";
import type { DatabaseHealth } from "../data/database-health.js";
import { toErrorBody } from "../base/http-error.js";
import type { StopState } from "./shutdown.js";

/**
 * `/healthz`: the process is up (until it exits). `/readyz`: the process is
 * not stopping and the database answers; from a stop signal on it is 503 at
 * once, so a load balancer takes this replica out while it still serves. Neither needs a key.
 */
export function probes(database: Pick<DatabaseHealth, "provider" | "isReady">, stopState: StopState): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    if (stopState.stopping) {
      res
        .status(503)
        .json(toErrorBody(503, "SHUTTING_DOWN", "The process is stopping: send requests to another replica."));
      return;
    }
    if (await database.isReady()) {
      res.json({ status: "ok", database: database.provider });
      return;
    }
    res.status(503).json(toErrorBody(503, "UNAVAILABLE", "The database is not reachable."));
  });
  return router;
}
