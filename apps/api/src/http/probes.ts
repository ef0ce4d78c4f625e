import { Router } from "express";
import type { Database } from "../data/database.js";
import { toErrorBody } from "../http-error.js";

/** `/healthz`: the process is up. `/readyz`: the database answers. Neither needs a key. */
export function probes(database: Pick<Database, "provider" | "isReady">): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    if (await database.isReady()) {
      res.json({ status: "ok", database: database.provider });
      return;
    }
    res.status(503).json(toErrorBody(503, "UNAVAILABLE", "The database is not reachable."));
  });
  return router;
}
