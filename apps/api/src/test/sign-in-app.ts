import express from "express";
import { ConfiguredKeys } from "../access/configured-keys.js";
import { IssuedKeys } from "../access/issued-keys.js";
import { unlimited } from "../access/rate-limit.js";
import { StaffSessions } from "../staff/sessions.js";
import type { TestApp } from "./test-app.js";

/**
 * Signs people in as the passkey and single sign-on ceremonies do, through `StaffSessions.startStaffSession`,
 * on a small app of its own over the test app's database: `POST /sign-in/:staffId` answers 201 with the
 * session cookie set, so a test gets a person's session without running a ceremony.
 */
export function signInApp(t: TestApp, now?: () => number): express.Express {
  const sessions = new StaffSessions({
    repository: t.database.staff,
    issuedKeys: new IssuedKeys({ repository: t.database.access }),
    configuredKeys: new ConfiguredKeys(t.config.apiKeys, t.database.access),
    adminOrigin: t.config.adminOrigin,
    idleMs: t.config.sessions.idleMs,
    maxMs: t.config.sessions.maxMs,
    authFailures: unlimited,
    ...(now ? { now } : {}),
  });
  const app = express();
  app.post("/sign-in/:staffId", (req, res, next) => {
    t.database.staff
      .getStaff(Number(req.params["staffId"]))
      .then((staff) => sessions.startStaffSession(req, res, staff!, "passkey"))
      .then((body) => res.status(201).json(body), next);
  });
  app.use(
    (
      error: { status?: number; message: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(error.status ?? 500).json({ message: error.message });
    },
  );
  return app;
}
