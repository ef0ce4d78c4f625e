import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startApiProcess } from "../test/api-process.js";
import { freshDatabase } from "../test/test-app.js";
import {
  ConfigError,
  DEFAULT_DATABASE_URL,
  DEV_API_KEY,
  loadDotEnvFile,
  MIN_PRODUCTION_KEY_LENGTH,
  readConfig,
  WORKSPACE_WEB_DIST_DIR,
} from "./env.js";

const STRONG_KEY = "k".repeat(MIN_PRODUCTION_KEY_LENGTH);
const PUBLIC_URL = "https://api.example-store.com/v1";
/** The least a production API starts with. */
const PRODUCTION = { NODE_ENV: "production", API_KEYS: STRONG_KEY, PUBLIC_URL_PRODUCTION: PUBLIC_URL };

describe("readConfig", () => {
  it("has working development defaults, with the documented dev key", () => {
    const config = readConfig({});
    expect(config.port).toBe(3000);
    expect(config.apiKeys).toEqual([DEV_API_KEY]);
    expect(config.databaseUrl).toBe(DEFAULT_DATABASE_URL);
    expect(config.rateLimitPerMinute).toBe(1200);
    expect(config.authFailuresPerMinute).toBe(60);
    expect(config.trustProxy).toBe(false);
    expect(config.redisUrl).toBeUndefined();
    expect(config.sqliteBusyTimeoutMs).toBe(5000);
  });

  it("ADMIN_ORIGIN: the Vite dev server in development, unset in production unless given, an origin only; session timeouts", () => {
    expect(readConfig({}).adminOrigin).toBe("http://localhost:5173");
    expect(readConfig(PRODUCTION).adminOrigin).toBeUndefined();
    expect(readConfig({ ...PRODUCTION, ADMIN_ORIGIN: "https://admin.example-store.com/" }).adminOrigin).toBe(
      "https://admin.example-store.com",
    );
    expect(() => readConfig({ ADMIN_ORIGIN: "https://admin.example-store.com/app" })).toThrow(
      /ADMIN_ORIGIN must be an origin/,
    );
    expect(() => readConfig({ ADMIN_ORIGIN: "admin.example-store.com" })).toThrow(/ADMIN_ORIGIN/);
    expect(readConfig({}).sessions).toEqual({ idleMs: 720 * 60_000, maxMs: 168 * 3_600_000 });
    expect(readConfig({ SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "2" }).sessions).toEqual({
      idleMs: 1_800_000,
      maxMs: 7_200_000,
    });
    expect(() => readConfig({ SESSION_IDLE_MINUTES: "0" })).toThrow(/SESSION_IDLE_MINUTES/);
  });

  it("splits comma-separated keys and origins", () => {
    const config = readConfig({ API_KEYS: "a, b,,c", CORS_ORIGIN: "http://a.test,http://b.test:5173" });
    expect(config.apiKeys).toEqual(["a", "b", "c"]);
    expect(config.corsOrigins).toEqual(["http://a.test", "http://b.test:5173"]);
  });

  it("CORS_ORIGIN: the Vite dev server's origins by default in development only; production allows none unless named", () => {
    expect(readConfig({}).corsOrigins).toEqual(["http://127.0.0.1:5173", "http://localhost:5173"]);
    expect(readConfig(PRODUCTION).corsOrigins).toEqual([]);
    expect(readConfig({ ...PRODUCTION, CORS_ORIGIN: "https://shop.example.com" }).corsOrigins).toEqual([
      "https://shop.example.com",
    ]);
  });

  it("refuses to start in production without keys", () => {
    expect(() => readConfig({ NODE_ENV: "production" })).toThrow(/API_KEYS is required in production/);
    expect(readConfig(PRODUCTION).apiKeys).toEqual([STRONG_KEY]);
  });

  it("refuses a production key shorter than 32 characters with one line naming API_KEYS, never the key", () => {
    const weak = "short-but-secret-key-31-chars!!";
    expect(weak).toHaveLength(MIN_PRODUCTION_KEY_LENGTH - 1);
    for (const keys of [weak, `${STRONG_KEY},${weak}`, DEV_API_KEY]) {
      try {
        readConfig({ NODE_ENV: "production", API_KEYS: keys });
        expect.fail("should throw");
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        const message = (error as Error).message;
        expect(message).toMatch(/^Invalid configuration: API_KEYS must hold keys of at least 32 characters/);
        expect(message).not.toContain("\n");
        expect(message).not.toContain(weak);
        expect(message).not.toContain(DEV_API_KEY);
        expect(message).not.toMatch(/\b1\b|second|index/);
      }
    }
    // Development and tests keep short keys, the documented dev key among them.
    expect(readConfig({ API_KEYS: "k" }).apiKeys).toEqual(["k"]);
    expect(readConfig({ NODE_ENV: "test" }).apiKeys).toEqual([DEV_API_KEY]);
  });

  it("the development key answers on loopback only: bound elsewhere without API_KEYS, or listing it, the start stops with one line naming API_KEYS", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.7", "[::]", "petstore.example"]) {
      for (const env of [
        { HOST: host },
        { HOST: host, NODE_ENV: "test" },
        { HOST: host, API_KEYS: `k,${DEV_API_KEY}` },
      ]) {
        try {
          readConfig(env);
          expect.fail(`should throw: ${JSON.stringify(env)}`);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          const message = (error as Error).message;
          expect(message, host).toMatch(/^Invalid configuration: API_KEYS .*loopback/);
          expect(message).not.toContain("\n");
        }
      }
      // A key of one's own opens a server on any address.
      expect(readConfig({ HOST: host, API_KEYS: "own-key" }).apiKeys).toEqual(["own-key"]);
    }
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"]) {
      expect(readConfig({ HOST: host }).apiKeys, host).toEqual([DEV_API_KEY]);
    }
  });

  it("TRUST_PROXY: loopback, a hop count or an address/CIDR list; unset or false trusts nobody; true is refused", () => {
    expect(readConfig({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(readConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(readConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,::1,fd00::/8,uniquelocal" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.7",
      "::1",
      "fd00::/8",
      "uniquelocal",
    ]);
    for (const bad of ["true", "10.0.0.0/33", "proxy.example", "10.0.0.1/8/2", ","]) {
      expect(() => readConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /^Invalid configuration: TRUST_PROXY must be loopback, a hop count/,
      );
    }
  });

  it("REDIS_URL must be a redis URL", () => {
    expect(readConfig({ REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl).toBe("redis://127.0.0.1:6379");
    expect(() => readConfig({ REDIS_URL: "127.0.0.1:6379" })).toThrow(/REDIS_URL must start with redis:\/\//);
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

  it("SHUTDOWN_DRAIN_MS: 5000 in production, 0 in development and tests, unless set", () => {
    expect(readConfig(PRODUCTION).shutdownDrainMs).toBe(5000);
    expect(readConfig({ NODE_ENV: "development" }).shutdownDrainMs).toBe(0);
    expect(readConfig({ NODE_ENV: "test" }).shutdownDrainMs).toBe(0);
    expect(readConfig({ ...PRODUCTION, SHUTDOWN_DRAIN_MS: "0" }).shutdownDrainMs).toBe(0);
    expect(readConfig({ SHUTDOWN_DRAIN_MS: "15000" }).shutdownDrainMs).toBe(15000);
    for (const bad of ["-1", "5s", "1.5"]) {
      expect(() => readConfig({ SHUTDOWN_DRAIN_MS: bad })).toThrow(
        /^Invalid configuration: SHUTDOWN_DRAIN_MS must be a non-negative integer$/,
      );
    }
  });

  it("SHUTDOWN_TIMEOUT_MS: REQUEST_TIMEOUT_MS + 1 s unless set; a positive integer", () => {
    expect(readConfig({}).shutdownTimeoutMs).toBe(11_000);
    expect(readConfig({ REQUEST_TIMEOUT_MS: "2000" }).shutdownTimeoutMs).toBe(3_000);
    expect(readConfig({ SHUTDOWN_TIMEOUT_MS: "500" }).shutdownTimeoutMs).toBe(500);
    for (const bad of ["0", "-1", "ten"]) {
      expect(() => readConfig({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(
        /^Invalid configuration: SHUTDOWN_TIMEOUT_MS must be a positive integer$/,
      );
    }
  });

  it("KEEP_ALIVE_TIMEOUT_MS (5 s by default, 0 = off) and HEADERS_TIMEOUT_MS (at most REQUEST_TIMEOUT_MS)", () => {
    const defaults = readConfig({});
    expect(defaults.keepAliveTimeoutMs).toBe(5_000);
    expect(defaults.headersTimeoutMs).toBe(10_000);
    expect(readConfig({ REQUEST_TIMEOUT_MS: "120000" }).headersTimeoutMs).toBe(60_000);
    expect(readConfig({ KEEP_ALIVE_TIMEOUT_MS: "65000" }).keepAliveTimeoutMs).toBe(65_000);
    expect(readConfig({ KEEP_ALIVE_TIMEOUT_MS: "0" }).keepAliveTimeoutMs).toBe(0);
    expect(readConfig({ REQUEST_TIMEOUT_MS: "90000", HEADERS_TIMEOUT_MS: "66000" }).headersTimeoutMs).toBe(66_000);
    expect(() => readConfig({ KEEP_ALIVE_TIMEOUT_MS: "5s" })).toThrow(
      /^Invalid configuration: KEEP_ALIVE_TIMEOUT_MS must be a non-negative integer$/,
    );
    expect(() => readConfig({ HEADERS_TIMEOUT_MS: "0" })).toThrow(
      /^Invalid configuration: HEADERS_TIMEOUT_MS must be a positive integer$/,
    );
    expect(() => readConfig({ HEADERS_TIMEOUT_MS: "20000" })).toThrow(
      /^Invalid configuration: HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS$/,
    );
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

  it("in production METRICS_TOKEN needs at least 32 characters, like an API key (one line, the token not echoed)", () => {
    const production = { ...PRODUCTION, API_KEYS: "k".repeat(32) };
    const refuse = () => readConfig({ ...production, METRICS_TOKEN: "short-scraper-token" });
    expect(refuse).toThrow(/^Invalid configuration: METRICS_TOKEN must be at least 32 characters in production[^\n]*$/);
    expect(refuse).not.toThrow(/short-scraper-token/);
    expect(readConfig({ ...production, METRICS_TOKEN: "m".repeat(32) }).metricsToken).toBe("m".repeat(32));
    expect(readConfig({ NODE_ENV: "development", METRICS_TOKEN: "short" }).metricsToken).toBe("short");
  });

  it("PUBLIC_URL_PRODUCTION is required in production: one line naming it", () => {
    const refuse = () => readConfig({ NODE_ENV: "production", API_KEYS: STRONG_KEY });
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(
      /^Invalid configuration: PUBLIC_URL_PRODUCTION is required in production \(the public address of the API, ending in \/v1, like https:\/\/api\.example-store\.com\/v1\)$/,
    );
    // Staging alone is no production address either.
    expect(() =>
      readConfig({
        NODE_ENV: "production",
        API_KEYS: STRONG_KEY,
        PUBLIC_URL_STAGING: "https://staging.example-store.com/v1",
      }),
    ).toThrow(/^Invalid configuration: PUBLIC_URL_PRODUCTION is required in production/);
  });

  it("servers: in production the configured ones, production then staging; no placeholder host", () => {
    expect(readConfig(PRODUCTION).servers).toEqual([{ url: PUBLIC_URL, description: "production" }]);
    expect(
      readConfig({ ...PRODUCTION, PUBLIC_URL_STAGING: "https://staging.example-store.com/api/v1" }).servers,
    ).toEqual([
      { url: PUBLIC_URL, description: "production" },
      { url: "https://staging.example-store.com/api/v1", description: "staging" },
    ]);
    expect(JSON.stringify(readConfig(PRODUCTION).servers)).not.toMatch(/petstore\.example/);
  });

  it("servers: in development and tests this API, relative (/v1), so /docs calls the origin it is on; the configured ones when PUBLIC_URL_PRODUCTION is set", () => {
    const development = [{ url: "/v1", description: "development" }];
    expect(readConfig({}).servers).toEqual(development);
    expect(readConfig({ NODE_ENV: "test" }).servers).toEqual(development);
    // Whatever the port, the host or the address the browser uses (127.0.0.1, a forwarded port): no host is named.
    expect(readConfig({ PORT: "4123" }).servers).toEqual(development);
    expect(readConfig({ PORT: "0" }).servers).toEqual(development);
    expect(readConfig({ HOST: "::1" }).servers).toEqual(development);
    expect(
      readConfig({ PUBLIC_URL_PRODUCTION: PUBLIC_URL, PUBLIC_URL_STAGING: "http://staging.internal:8080/v1" }).servers,
    ).toEqual([
      { url: PUBLIC_URL, description: "production" },
      { url: "http://staging.internal:8080/v1", description: "staging" },
    ]);
    expect(() => readConfig({ PUBLIC_URL_STAGING: "https://staging.example-store.com/v1" })).toThrow(
      /^Invalid configuration: PUBLIC_URL_STAGING needs PUBLIC_URL_PRODUCTION/,
    );
  });

  it("PUBLIC_URL_PRODUCTION and PUBLIC_URL_STAGING: an http(s) URL whose path ends exactly in /v1, in every NODE_ENV, one line naming the setting", () => {
    const bad = [
      "https://api.example-store.com",
      "https://api.example-store.com/",
      "https://api.example-store.com/v2",
      "https://api.example-store.com/v1/",
      "https://api.example-store.com/xv1",
      "https://api.example-store.com/v1?x=1",
      "https://api.example-store.com/v1#top",
      "https://user:secret@api.example-store.com/v1",
      "ftp://api.example-store.com/v1",
      "api.example-store.com/v1",
    ];
    for (const url of bad) {
      for (const nodeEnv of ["production", "development", "test"]) {
        for (const [name, env] of [
          ["PUBLIC_URL_PRODUCTION", { PUBLIC_URL_PRODUCTION: url }],
          ["PUBLIC_URL_STAGING", { PUBLIC_URL_PRODUCTION: PUBLIC_URL, PUBLIC_URL_STAGING: url }],
        ] as const) {
          const refuse = () => readConfig({ NODE_ENV: nodeEnv, API_KEYS: STRONG_KEY, ...env });
          expect(refuse, `${name}=${url} ${nodeEnv}`).toThrow(
            new RegExp(
              `^Invalid configuration: ${name} must be an http\\(s\\) URL whose path ends in /v1 \\(no trailing slash, query, fragment or credentials\\), like https://api\\.example-store\\.com/v1$`,
            ),
          );
        }
      }
    }
    for (const url of [
      "https://api.example-store.com/v1",
      "https://example-store.com/api/v1",
      "http://127.0.0.1:3100/v1",
      "https://api.example-store.com:8443/v1",
    ]) {
      expect(readConfig({ ...PRODUCTION, PUBLIC_URL_PRODUCTION: url }).servers, url).toEqual([
        { url, description: "production" },
      ]);
    }
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
    expect(readConfig({}).webDistDir).toBe(
      existsSync(path.join(WORKSPACE_WEB_DIST_DIR, "index.html")) ? WORKSPACE_WEB_DIST_DIR : undefined,
    );
    expect(WORKSPACE_WEB_DIST_DIR).toMatch(/apps[/\\]web[/\\]dist$/);
  });
});

describe("the built API in production without PUBLIC_URL_PRODUCTION", () => {
  it("does not start: it exits non-zero with one line naming PUBLIC_URL_PRODUCTION", async () => {
    const database = await freshDatabase("sqlite");
    // Empty means unset (and keeps an apps/api/.env from setting it).
    const api = await startApiProcess({ PUBLIC_URL_PRODUCTION: "", API_KEYS: STRONG_KEY, DATABASE_URL: database.url });
    const exit = await Promise.race([
      api.exited,
      new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 15_000)),
    ]);
    if (exit === "running") await api.stop("SIGKILL");
    await database.remove();
    expect(exit).not.toBe("running");
    expect((exit as { code: number | null }).code).not.toBe(0);
    const lines = api.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PUBLIC_URL_PRODUCTION is required in production/);
  });
});

describe("the built API bound to every address with NODE_ENV and API_KEYS unset", () => {
  it("does not start: it exits non-zero with one line naming API_KEYS, and never serves the development key", async () => {
    const database = await freshDatabase("sqlite");
    // Empty means unset (and keeps an apps/api/.env from setting them).
    const api = await startApiProcess({ NODE_ENV: "", API_KEYS: "", HOST: "0.0.0.0", DATABASE_URL: database.url });
    const exit = await Promise.race([
      api.exited,
      new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 15_000)),
    ]);
    if (exit === "running") await api.stop("SIGKILL");
    await database.remove();
    expect(exit).not.toBe("running");
    expect(exit).toMatchObject({ code: expect.any(Number) });
    expect((exit as { code: number }).code).not.toBe(0);
    const lines = api.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: API_KEYS .*loopback/);
  });
});
