import express from "express";
import { pino } from "pino";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../database.js";
import { sendError } from "../http/errors.js";
import { matchedRoute } from "../http/matched-route.js";
import { requestLogging } from "../ops/request-logging.js";
import { freshDatabase, TEST_KEY } from "../test/test-app.js";
import { requireApiKey } from "./api-key-check.js";
import { ConfiguredKeys } from "./configured-keys.js";
import { IssuedKeys } from "./issued-keys.js";
import { issueKey } from "./issue-key.js";
import { unlimited } from "./rate-limit.js";

describe("requireApiKey mounted without matchRoutes before it (a wiring fault)", () => {
  it("answers an issued key 500, whether it waited for the key set or not, and never leaves the request hanging", async () => {
    const testDatabase = await freshDatabase();
    const database = await openDatabase({ url: testDatabase.url, poolSize: 1 });
    try {
      const operator = {
        actor: { staffId: null, keyId: "operator", name: "Operator command" },
        requestId: null,
        clientAddress: null,
      };
      const { secret } = await issueKey(
        database.access,
        { name: "Front desk", scope: "read", expiresAt: null, createdBy: null, createdByStaffId: null },
        operator,
      );
      const lines: string[] = [];
      const app = express();
      app.use(requestLogging(app, pino({ level: "error" }, { write: (line: string) => void lines.push(line) })));
      app.use(
        requireApiKey({
          configuredKeys: new ConfiguredKeys([TEST_KEY], database.access),
          authFailures: unlimited,
          requestsPerKey: unlimited,
          // Never read yet: the first request waits for the set (the asynchronous branch), the second finds it fresh.
          issuedKeys: new IssuedKeys({ repository: database.access }),
          recordKeyUse: () => {},
          operationOf: matchedRoute,
        }),
      );
      app.get("/v1/pets", (_req, res) => void res.json([]));
      app.use(sendError);
      const call = () => request(app).get("/v1/pets").set("Authorization", `Bearer ${secret}`).timeout(5_000);
      const waited = await call();
      expect(waited.status).toBe(500);
      expect(waited.body).toMatchObject({ code: "INTERNAL", status: 500 });
      expect((await call()).status).toBe(500);
      expect(lines.filter((line) => line.includes("matchRoutes is not mounted")).length).toBe(2);
    } finally {
      await database.close();
      await testDatabase.remove();
    }
  });
});

describe("requireApiKey given an operation missing from the scope table (a wiring fault)", () => {
  it("fails closed: the operation needs admin, so a read key gets 403 and an admin key passes", async () => {
    const testDatabase = await freshDatabase();
    const database = await openDatabase({ url: testDatabase.url, poolSize: 1 });
    try {
      const operator = {
        actor: { staffId: null, keyId: "operator", name: "Operator command" },
        requestId: null,
        clientAddress: null,
      };
      const issue = (scope: "read" | "admin") =>
        issueKey(
          database.access,
          { name: scope, scope, expiresAt: null, createdBy: null, createdByStaffId: null },
          operator,
        );
      const [reader, admin] = [await issue("read"), await issue("admin")];
      const app = express();
      app.use(
        requireApiKey({
          configuredKeys: new ConfiguredKeys([TEST_KEY], database.access),
          authFailures: unlimited,
          requestsPerKey: unlimited,
          issuedKeys: new IssuedKeys({ repository: database.access }),
          recordKeyUse: () => {},
          operationOf: () => ({ operation: "exportEverything" }),
        }),
      );
      app.get("/v1/export", (_req, res) => void res.json([]));
      app.use(sendError);
      const call = (secret: string) => request(app).get("/v1/export").set("Authorization", `Bearer ${secret}`);
      const refused = await call(reader.secret);
      expect(refused.status).toBe(403);
      expect(refused.headers["www-authenticate"]).toBe(
        'Bearer realm="petstore", error="insufficient_scope", scope="admin"',
      );
      expect((await call(admin.secret)).status).toBe(200);
      expect((await call(TEST_KEY)).status).toBe(200);
    } finally {
      await database.close();
      await testDatabase.remove();
    }
  });
});
