import { AuditEvents } from "@petstore/contract";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_ROOT } from "./base/env.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "./test/test-app.js";

const run = promisify(execFile);
const COMMAND = path.join(API_ROOT, "dist", "keys-command.js");

describe.each(TEST_PROVIDERS)("the keys operator command on %s (built)", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  const keys = (...args: string[]) =>
    run(process.execPath, [COMMAND, ...args], {
      cwd: API_ROOT,
      env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: t.config.databaseUrl },
    });
  const status = async (secret: string) =>
    (await request(t.app).get("/admin/v1/session").set("Authorization", `Bearer ${secret}`)).status;

  it("create prints the secret once; a running API accepts it within 2 s; list shows it; revoke refuses it within 2 s; both audited as the operator", async () => {
    const created = await keys(
      "create",
      "--name",
      "Front desk",
      "--scope",
      "read",
      "--expires",
      "2999-01-01T00:00:00Z",
    );
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('"Front desk" (read, prefix ' + secret.slice(0, 12));
    await expect.poll(() => status(secret), { timeout: 2_000, interval: 50 }).toBe(200);

    const listed = await keys("list");
    expect(listed.stdout).toMatch(new RegExp(`^1\\tFront desk\\tread\\t${secret.slice(0, 12)}\\tactive\\t`));
    expect(listed.stdout).not.toContain(secret.slice(12));
    const [key] = (await request(t.app).get("/admin/v1/keys").set("Authorization", bearer())).body as Array<{
      id: number;
      createdBy: string | null;
    }>;
    expect(key).toMatchObject({ id: 1, createdBy: null });

    const revoked = await keys("revoke", "1");
    expect(revoked.stdout).toContain('Revoked key 1 "Front desk" (read');
    await expect.poll(() => status(secret), { timeout: 2_000, interval: 50 }).toBe(401);

    const events = AuditEvents.parse(
      (await request(t.app).get("/admin/v1/audit-events").set("Authorization", bearer())).body,
    );
    expect(events.map((event) => [event.action, event.actor, event.requestId, event.clientAddress])).toEqual([
      ["key.revoked", { keyId: "operator", staffId: null, name: "Operator command" }, null, null],
      ["key.created", { keyId: "operator", staffId: null, name: "Operator command" }, null, null],
    ]);
  }, 60_000);

  it("refuses bad input with exit code 1 and a line saying why, storing nothing", async () => {
    await expect(keys("create", "--name", "X", "--scope", "owner")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--scope"),
    });
    await expect(keys("create", "--scope", "read")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--name"),
    });
    await expect(keys("revoke", "configured-1")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("decimal digits"),
    });
    await expect(keys("revoke", "42")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No issued key has id 42"),
    });
    await expect(keys("rotate")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("Usage:") });
    expect((await keys("list")).stdout).toBe("No issued keys.\n");
  }, 60_000);
});
