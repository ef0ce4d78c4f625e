import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_DATABASE_URL, DEV_API_KEY, loadDotEnvFile, readConfig, WORKSPACE_WEB_DIST_DIR } from "./env.js";

describe("readConfig", () => {
  it("has working development defaults, with the documented dev key", () => {
    const config = readConfig({});
    expect(config.port).toBe(3000);
    expect(config.apiKeys).toEqual([DEV_API_KEY]);
    expect(config.databaseUrl).toBe(DEFAULT_DATABASE_URL);
    expect(config.rateLimitPerMinute).toBe(1200);
    expect(config.authFailuresPerMinute).toBe(60);
  });

  it("splits comma-separated keys and origins", () => {
    const config = readConfig({ API_KEYS: "a, b,,c", CORS_ORIGIN: "http://a.test,http://b.test:5173" });
    expect(config.apiKeys).toEqual(["a", "b", "c"]);
    expect(config.corsOrigins).toEqual(["http://a.test", "http://b.test:5173"]);
  });

  it("refuses to start in production without keys", () => {
    expect(() => readConfig({ NODE_ENV: "production" })).toThrow(/API_KEYS is required in production/);
    expect(readConfig({ NODE_ENV: "production", API_KEYS: "k" }).apiKeys).toEqual(["k"]);
  });

  it("rejects bad values with one line naming each variable", () => {
    try {
      readConfig({ PORT: "http", DATABASE_URL: "mysql://x" });
      expect.fail("should throw");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).not.toContain("\n");
      expect(message).toContain("PORT");
      expect(message).toContain("DATABASE_URL");
    }
  });

  it("reads IDEMPOTENCY_TTL_HOURS as hours, fractions allowed, 24 by default", () => {
    expect(readConfig({}).idempotencyTtlMs).toBe(24 * 3_600_000);
    expect(readConfig({ IDEMPOTENCY_TTL_HOURS: "0.5" }).idempotencyTtlMs).toBe(1_800_000);
    for (const bad of ["0", "-1", "1h", "1e3"]) {
      expect(() => readConfig({ IDEMPOTENCY_TTL_HOURS: bad })).toThrow(/IDEMPOTENCY_TTL_HOURS/);
    }
  });

  it("METRICS_TOKEN is optional and must not be one of the API keys (one line, the secret not echoed)", () => {
    expect(readConfig({}).metricsToken).toBeUndefined();
    expect(readConfig({ API_KEYS: "a,b", METRICS_TOKEN: "scraper" }).metricsToken).toBe("scraper");
    const refuse = () => readConfig({ API_KEYS: "first-key,second-key", METRICS_TOKEN: "second-key" });
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(/^Invalid configuration: METRICS_TOKEN must differ from every API key[^\n]*$/);
    expect(refuse).not.toThrow(/second-key/);
  });

  it("resolves a relative SQLite path once", () => {
    expect(readConfig({ DATABASE_URL: "file:./x.db" }).databaseUrl).toBe(`file:${process.cwd()}/x.db`);
  });

  it("loads a .env file without overriding variables already set", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "petstore-env-")), ".env");
    writeFileSync(file, "PETSTORE_TEST_FROM_FILE=file\nPETSTORE_TEST_ALREADY_SET=file\n");
    process.env["PETSTORE_TEST_ALREADY_SET"] = "shell";
    try {
      loadDotEnvFile(file);
      expect(process.env["PETSTORE_TEST_FROM_FILE"]).toBe("file");
      expect(process.env["PETSTORE_TEST_ALREADY_SET"]).toBe("shell");
    } finally {
      delete process.env["PETSTORE_TEST_FROM_FILE"];
      delete process.env["PETSTORE_TEST_ALREADY_SET"];
    }
  });

  it("WEB_DIST_DIR: a folder with an index.html is served; one without stops the start; unset, the workspace's build if built", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "petstore-env-web-"));
    expect(() => readConfig({ WEB_DIST_DIR: dist })).toThrow(/WEB_DIST_DIR has no index.html/);
    writeFileSync(path.join(dist, "index.html"), "<!doctype html>");
    expect(readConfig({ WEB_DIST_DIR: dist }).webDistDir).toBe(dist);
    expect(readConfig({}).webDistDir).toBe(existsSync(path.join(WORKSPACE_WEB_DIST_DIR, "index.html")) ? WORKSPACE_WEB_DIST_DIR : undefined);
    expect(WORKSPACE_WEB_DIST_DIR).toMatch(/apps[/\\]web[/\\]dist$/);
  });
});
