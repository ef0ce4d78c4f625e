import { existsSync, readFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import path from "node:path";
import { parseEnv } from "node:util";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { API_PATH_PREFIX } from "@petstore/contract";
import { sqliteFilePath } from "./database-url.js";
import { operationsEnvShape, operationsSettings } from "./operations-settings.js";
import {
  DEFAULT_SSO_DISPLAY_NAME,
  DEFAULT_SSO_ROLE_CLAIM,
  parseRoleMap,
  parseScopes,
  type SingleSignOnSettings,
} from "./sso-settings.js";

/** The API's own folder; the embedded database lives in its data/ folder. */
export const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_DATABASE_URL = `file:${path.join(API_ROOT, "data", "petstore.db")}`;
/** Where `backup` writes when neither `--to` nor BACKUP_DIR says: beside the embedded database (docs/operations.md says why another disk is better). */
export const DEFAULT_BACKUP_DIR = path.join(API_ROOT, "data", "backups");
/** The admin app's production build in this workspace (`turbo build`): served at `/` when WEB_DIST_DIR is unset. */
export const WORKSPACE_WEB_DIST_DIR = path.join(API_ROOT, "..", "web", "dist");
/** Documented in the README and .env.example; refused when NODE_ENV=production, and on a HOST other than loopback. */
export const DEV_API_KEY = "dev-petstore-key";
/** The admin app's origin in development: the Vite dev server, which proxies `/v1` and `/admin` to the API. */
export const DEV_ADMIN_ORIGIN = "http://localhost:5173";
/** The Vite dev server's origins: cross-origin browser clients allowed in development and tests only. */
const DEV_CORS_ORIGINS = ["http://127.0.0.1:5173", "http://localhost:5173"];
/** A production key must be at least this long: a short key can be guessed even under the auth-failure limit. */
export const MIN_PRODUCTION_KEY_LENGTH = 32;

const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);

const nonNegativeInt = (fallback: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a non-negative integer")
    .transform(Number)
    .default(String(fallback));

/** Waits like `5s,5m,30m,2h` (ms, s, m, h, d), comma-separated, in ms. */
const durationList = z.string().transform((value, ctx) => {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const waits = value.split(",").map((item) => /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)$/.exec(item.trim()));
  if (waits.some((wait) => wait === null)) {
    ctx.addIssue({
      code: "custom",
      message: "must be a comma-separated list of waits like 5s,5m,30m,2h (units ms, s, m, h, d)",
    });
    return z.NEVER;
  }
  return waits.map((wait) => Math.round(Number(wait![1]) * units[wait![2]!]!));
});

const trueOrFalse = z.enum(["true", "false"]).optional();

/**
 * A public address of the API (PUBLIC_URL_PRODUCTION, PUBLIC_URL_STAGING): the spec's servers end in `/v1`, and
 * the documents' paths are relative to it. Exactly `/v1` at the end: no trailing slash, query or fragment
 * (the admin document's server is the same address with `/admin/v1` for its final `/v1`), and no credentials
 * (the address is published).
 */
const publicApiUrl = z
  .string()
  .refine((value) => {
    if (!URL.canParse(value) || !value.endsWith("/v1")) return false;
    const url = new URL(value);
    return (
      ["http:", "https:"].includes(url.protocol) &&
      url.pathname.endsWith("/v1") &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password
    );
  }, "must be an http(s) URL whose path ends in /v1 (no trailing slash, query, fragment or credentials), like https://api.example-store.com/v1")
  .optional();

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether HOST is a loopback address (127.0.0.0/8, ::1, or `localhost`): only this machine can reach the server. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") return true;
  const address = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const version = isIP(address);
  return version !== 0 && LOOPBACK.check(address, version === 4 ? "ipv4" : "ipv6");
}

/** Express's names for address ranges, usable in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isProxyAddress = (item: string) => {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = "", prefix, ...rest] = item.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
};

/**
 * Which peers may tell the client's address in X-Forwarded-For (Express `trust proxy`).
 * Unset or "false": nobody, the socket address is the client. `true` is refused: it
 * would believe any forged header, so anyone could pick the address their failures count against.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    if (value === undefined || value === "false") return false;
    if (/^[0-9]+$/.test(value)) return Number(value);
    const items = value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    if (items.length > 0 && items.every(isProxyAddress)) return items;
    ctx.addIssue({
      code: "custom",
      message:
        "must be loopback, a hop count, or a comma-separated list of proxy addresses or CIDRs (true is not accepted)",
    });
    return z.NEVER;
  });

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: z
      .string()
      .regex(/^[0-9]+$/, "must be a port number")
      .transform(Number)
      .pipe(z.number().int().min(0).max(65535))
      .default("3000"),
    API_KEYS: commaList.optional(),
    DATABASE_URL: z
      .string()
      .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, "must start with file:, postgres:// or postgresql://")
      .default(DEFAULT_DATABASE_URL),
    DATABASE_STARTUP_TIMEOUT_MS: z
      .string()
      .regex(/^[0-9]+$/, "must be a non-negative integer")
      .transform(Number)
      .default("60000"),
    DATABASE_POOL_SIZE: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("10"),
    // No default here: the development default must not open a production API to a local page (see corsOrigins).
    CORS_ORIGIN: commaList
      .pipe(z.array(z.string().url("must be a comma-separated list of origins like http://127.0.0.1:5173")))
      .optional(),
    METRICS_TOKEN: z.string().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    RATE_LIMIT_PER_MIN: nonNegativeInt(1200),
    AUTH_FAILURES_PER_MIN: nonNegativeInt(60),
    TOKENS_PER_SESSION_PER_MIN: nonNegativeInt(30),
    TRUST_PROXY: trustProxy,
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
      .optional(),
    SQLITE_BUSY_TIMEOUT_MS: nonNegativeInt(5000),
    REQUEST_TIMEOUT_MS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("10000"),
    HEADERS_TIMEOUT_MS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .optional(),
    KEEP_ALIVE_TIMEOUT_MS: nonNegativeInt(5000),
    SHUTDOWN_DRAIN_MS: z
      .string()
      .regex(/^[0-9]+$/, "must be a non-negative integer")
      .transform(Number)
      .optional(),
    SHUTDOWN_TIMEOUT_MS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .optional(),
    IDEMPOTENCY_TTL_HOURS: z
      .string()
      .regex(/^[0-9]+(\.[0-9]+)?$/, "must be a positive number of hours")
      .transform(Number)
      .pipe(z.number().positive("must be a positive number of hours"))
      .default("24"),
    SEED: z.enum(["true", "false"]).optional(),
    // Required in production; unset elsewhere, the document's one server is this API itself (see servers below).
    PUBLIC_URL_PRODUCTION: publicApiUrl,
    PUBLIC_URL_STAGING: publicApiUrl,
    WEB_DIST_DIR: z.string().optional(),
    WEBHOOK_TIMEOUT_MS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("10000"),
    WEBHOOK_RETRY_SCHEDULE: durationList.default("5s,5m,30m,2h,5h,10h,10h"),
    WEBHOOK_ALLOW_HTTP: trueOrFalse,
    WEBHOOK_ALLOW_PRIVATE: trueOrFalse,
    WEBHOOK_POLL_MS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("500"),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("4"),
    // Open event streams (streamEvents) per process; past it, 503 with Retry-After.
    STREAM_MAX: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("1000"),
    // Single sign-on (OpenID Connect): on when the first three are set, off when none is.
    OIDC_ISSUER: z
      .string()
      .url("must be the identity provider's issuer URL, like https://accounts.google.com")
      .refine(
        (value) => value.startsWith("https://"),
        "must be an https:// URL (OpenID Connect refuses a plain http issuer)",
      )
      .optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    OIDC_DISPLAY_NAME: z.string().trim().max(60, "must be at most 60 characters").optional(),
    OIDC_ROLE_CLAIM: z
      .string()
      .trim()
      .regex(/^[^\s]+$/, "must be one claim name (or a dotted path like realm_access.roles), without spaces")
      .optional(),
    OIDC_ROLE_MAP: z
      .string()
      .transform((value, ctx) => {
        const parsed = parseRoleMap(value);
        if ("map" in parsed) return parsed.map;
        ctx.addIssue({ code: "custom", message: parsed.problem });
        return z.NEVER;
      })
      .optional(),
    OIDC_SCOPES: z
      .string()
      .transform((value, ctx) => {
        const parsed = parseScopes(value);
        if ("scopes" in parsed) return parsed.scopes;
        ctx.addIssue({ code: "custom", message: parsed.problem });
        return z.NEVER;
      })
      .optional(),
    ADMIN_ORIGIN: z
      .string()
      .url("must be an origin like https://admin.example-store.com")
      .refine(
        (value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, ""),
        "must be an origin (scheme, host and port), with no path",
      )
      .optional(),
    SESSION_IDLE_MINUTES: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("720"),
    SESSION_MAX_HOURS: z
      .string()
      .regex(/^[1-9][0-9]*$/, "must be a positive integer")
      .transform(Number)
      .default("168"),
    ...operationsEnvShape,
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === "production";
    const apiKeys = env.API_KEYS ?? (production ? [] : [DEV_API_KEY]);
    if (apiKeys.length === 0) {
      ctx.addIssue({ code: "custom", path: ["API_KEYS"], message: "is required in production (comma-separated keys)" });
      return z.NEVER;
    }
    // The development key is in the README: it may open only a server nobody else can reach, whether it is
    // the default or listed on purpose.
    if (!isLoopbackHost(env.HOST) && apiKeys.includes(DEV_API_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["API_KEYS"],
        message:
          env.API_KEYS === undefined
            ? `is required when HOST is not a loopback address (HOST=${env.HOST}): the development key answers on loopback only`
            : `must not list the development key when HOST is not a loopback address (HOST=${env.HOST})`,
      });
      return z.NEVER;
    }
    // A scraper's credential must not also open the API (nor an API key the metrics).
    if (env.METRICS_TOKEN !== undefined && apiKeys.includes(env.METRICS_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: ["METRICS_TOKEN"],
        message: "must differ from every API key (a secret of its own)",
      });
      return z.NEVER;
    }
    if (production && apiKeys.some((key) => key.length < MIN_PRODUCTION_KEY_LENGTH)) {
      // Never the key itself, nor its position: the message goes to logs.
      ctx.addIssue({
        code: "custom",
        path: ["API_KEYS"],
        message: `must hold keys of at least ${MIN_PRODUCTION_KEY_LENGTH} characters each in production`,
      });
      return z.NEVER;
    }
    if (production && env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN.length < MIN_PRODUCTION_KEY_LENGTH) {
      // The same bar as an API key: the token guards process and traffic figures, and /metrics has no failure limit of its own.
      ctx.addIssue({
        code: "custom",
        path: ["METRICS_TOKEN"],
        message: `must be at least ${MIN_PRODUCTION_KEY_LENGTH} characters in production`,
      });
      return z.NEVER;
    }
    // The OpenAPI documents' servers, where Swagger UI's "Try it out" sends requests: in production only the
    // addresses the operator names, production then staging, never a placeholder host; in development and
    // tests without them, this API itself: `/v1`, relative to where the document is served (OpenAPI 3), so
    // /docs calls the origin the browser is on (localhost or 127.0.0.1, any port, a forwarded one).
    if (production && env.PUBLIC_URL_PRODUCTION === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL_PRODUCTION"],
        message:
          "is required in production (the public address of the API, ending in /v1, like https://api.example-store.com/v1)",
      });
      return z.NEVER;
    }
    if (env.PUBLIC_URL_PRODUCTION === undefined && env.PUBLIC_URL_STAGING !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL_STAGING"],
        message: "needs PUBLIC_URL_PRODUCTION: the documents list production, then staging",
      });
      return z.NEVER;
    }
    const servers: Array<{ url: string; description: "production" | "staging" | "development" }> =
      env.PUBLIC_URL_PRODUCTION === undefined
        ? [{ url: API_PATH_PREFIX, description: "development" }]
        : [
            { url: env.PUBLIC_URL_PRODUCTION, description: "production" },
            ...(env.PUBLIC_URL_STAGING === undefined
              ? []
              : [{ url: env.PUBLIC_URL_STAGING, description: "staging" as const }]),
          ];
    const operations = operationsSettings(env, DEFAULT_BACKUP_DIR, ctx);
    if (operations === z.NEVER) return z.NEVER;
    // Node refuses a server whose headers timeout exceeds its request timeout.
    const headersTimeoutMs = env.HEADERS_TIMEOUT_MS ?? Math.min(env.REQUEST_TIMEOUT_MS, 60_000);
    if (headersTimeoutMs > env.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: "custom", path: ["HEADERS_TIMEOUT_MS"], message: "must not exceed REQUEST_TIMEOUT_MS" });
      return z.NEVER;
    }
    // A folder named on purpose must hold a build; the workspace's own is used only when one has been built.
    const webDistDir = env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : existsSync(path.join(WORKSPACE_WEB_DIST_DIR, "index.html"))
        ? WORKSPACE_WEB_DIST_DIR
        : undefined;
    if (webDistDir && !existsSync(path.join(webDistDir, "index.html"))) {
      ctx.addIssue({
        code: "custom",
        path: ["WEB_DIST_DIR"],
        message: "has no index.html (build the admin app or unset it)",
      });
      return z.NEVER;
    }
    // Single sign-on: the issuer, client id and secret go together; a half-configured sign-in would show a
    // button that can only fail. Never the secret in the message.
    const ssoTrio = {
      OIDC_ISSUER: env.OIDC_ISSUER,
      OIDC_CLIENT_ID: env.OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET,
    };
    const ssoMissing = Object.keys(ssoTrio).filter((name) => ssoTrio[name as keyof typeof ssoTrio] === undefined);
    if (ssoMissing.length > 0 && ssoMissing.length < 3) {
      ctx.addIssue({
        code: "custom",
        path: [ssoMissing[0]!],
        message: `is required with ${Object.keys(ssoTrio)
          .filter((name) => !ssoMissing.includes(name))
          .join(" and ")}: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none of them`,
      });
      return z.NEVER;
    }
    // Without a map nobody could sign in; a default map would hand roles to whatever groups happen to bear its names.
    if (ssoMissing.length === 0 && env.OIDC_ROLE_MAP === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ROLE_MAP"],
        message:
          "is required with single sign-on: which groups get which role, like petstore-admins=admin,front-desk=write",
      });
      return z.NEVER;
    }
    const singleSignOn: SingleSignOnSettings | undefined =
      ssoMissing.length === 0
        ? {
            issuer: env.OIDC_ISSUER!,
            clientId: env.OIDC_CLIENT_ID!,
            clientSecret: env.OIDC_CLIENT_SECRET!,
            displayName: env.OIDC_DISPLAY_NAME || DEFAULT_SSO_DISPLAY_NAME,
            roleClaim: env.OIDC_ROLE_CLAIM || DEFAULT_SSO_ROLE_CLAIM,
            roleMap: env.OIDC_ROLE_MAP!,
            extraScopes: env.OIDC_SCOPES ?? [],
          }
        : undefined;
    return {
      nodeEnv: env.NODE_ENV,
      host: env.HOST,
      port: env.PORT,
      apiKeys,
      // A relative SQLite path is taken from the working directory, once, so the CLI and the app agree.
      databaseUrl: env.DATABASE_URL.startsWith("file:")
        ? `file:${path.resolve(sqliteFilePath(env.DATABASE_URL))}`
        : env.DATABASE_URL,
      databasePoolSize: env.DATABASE_POOL_SIZE,
      databaseStartupTimeoutMs: env.DATABASE_STARTUP_TIMEOUT_MS,
      // Production: only the origins the operator names (none: no cross-origin browser client at all).
      corsOrigins: env.CORS_ORIGIN ?? (production ? [] : DEV_CORS_ORIGINS),
      /** Bearer token for GET /metrics; unset, /metrics is 404. */
      metricsToken: env.METRICS_TOKEN,
      logLevel: env.LOG_LEVEL ?? (production ? "info" : env.NODE_ENV === "test" ? "silent" : "debug"),
      rateLimitPerMinute: env.RATE_LIMIT_PER_MIN,
      authFailuresPerMinute: env.AUTH_FAILURES_PER_MIN,
      /** Session tokens one browser session may buy per minute (POST /session/token); 0: not counted. */
      tokensPerSessionPerMinute: env.TOKENS_PER_SESSION_PER_MIN,
      trustProxy: env.TRUST_PROXY,
      redisUrl: env.REDIS_URL,
      sqliteBusyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      headersTimeoutMs,
      // 0 turns keep-alive off. Behind a load balancer, set it above the balancer's idle timeout (docs/production.md, "Rolling restarts").
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
      // After SIGTERM, readiness is 503 and the API goes on serving this long before it closes its listener:
      // longer than a load balancer's health-check interval (HAProxy's default 2 s), so it stops sending requests
      // here first. Nothing to drain for without a balancer (development, tests): 0.
      shutdownDrainMs: env.SHUTDOWN_DRAIN_MS ?? (production ? 5_000 : 0),
      // After the drain, how long in-flight requests may take before they are cut (exit 1). A request still
      // arriving is cut by REQUEST_TIMEOUT_MS anyway; the extra second lets its answer go out.
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS ?? env.REQUEST_TIMEOUT_MS + 1_000,
      // Hours, fractions allowed (tests use seconds' worth).
      idempotencyTtlMs: Math.round(env.IDEMPOTENCY_TTL_HOURS * 3_600_000),
      // Development databases get demo pets; production ones never do unless asked.
      seed: env.SEED ? env.SEED === "true" : !production,
      /** The OpenAPI documents' servers, in order (see above): production then staging, or the development API. */
      servers,
      // Response validation costs time on the hot path; development and tests keep it on.
      validateResponses: !production,
      /** The admin app's build, served at `/`; undefined: the API runs alone. */
      webDistDir,
      /**
       * The origin staff open the admin app at: the expected `Origin` of the session's token and sign-out
       * requests, the WebAuthn relying party, the base of invitation links and of the single sign-on
       * redirect URI. Development: the Vite dev server. Unset in production: passkeys, invitations and
       * single sign-on are off, and the token endpoint expects the request's own scheme and host.
       */
      adminOrigin: env.ADMIN_ORIGIN ? new URL(env.ADMIN_ORIGIN).origin : production ? undefined : DEV_ADMIN_ORIGIN,
      sessions: {
        /** A session with no token bought for this long ends. */
        idleMs: env.SESSION_IDLE_MINUTES * 60_000,
        /** A session ends this long after its sign-in, whatever its activity. */
        maxMs: env.SESSION_MAX_HOURS * 3_600_000,
      },
      webhooks: {
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE,
        // Development sends to http:// receivers on this machine; elsewhere only when set.
        allowHttp: env.WEBHOOK_ALLOW_HTTP ? env.WEBHOOK_ALLOW_HTTP === "true" : env.NODE_ENV === "development",
        allowPrivate: env.WEBHOOK_ALLOW_PRIVATE ? env.WEBHOOK_ALLOW_PRIVATE === "true" : env.NODE_ENV === "development",
        /** How often each process looks for due deliveries. */
        pollMs: env.WEBHOOK_POLL_MS,
        /** One endpoint's sends at once per process: a slow receiver holds no more than this many of the sender's slots. */
        maxInFlightPerEndpoint: env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      },
      /** At most this many open event streams (streamEvents) per process. */
      streamMax: env.STREAM_MAX,
      /** OpenID Connect sign-in for staff; undefined: off (the sign-in page offers no button). */
      singleSignOn,
      /** Backups (the API's schedule and the `backup` command) and the retention purge. */
      operations,
    };
  });

export type Config = z.output<typeof EnvSchema>;

/** What the data commands (`backup`, `restore`, `retention`) need: the database, and the operations settings. */
const OperationsEnvSchema = z
  .object({
    DATABASE_URL: EnvSchema.innerType().shape.DATABASE_URL,
    SQLITE_BUSY_TIMEOUT_MS: EnvSchema.innerType().shape.SQLITE_BUSY_TIMEOUT_MS,
    IDEMPOTENCY_TTL_HOURS: EnvSchema.innerType().shape.IDEMPOTENCY_TTL_HOURS,
    ...operationsEnvShape,
  })
  .transform((env, ctx) => {
    const operations = operationsSettings(env, DEFAULT_BACKUP_DIR, ctx);
    if (operations === z.NEVER) return z.NEVER;
    return {
      databaseUrl: env.DATABASE_URL.startsWith("file:")
        ? `file:${path.resolve(sqliteFilePath(env.DATABASE_URL))}`
        : env.DATABASE_URL,
      sqliteBusyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS,
      idempotencyTtlMs: Math.round(env.IDEMPOTENCY_TTL_HOURS * 3_600_000),
      operations,
    };
  });
export type OperationsConfig = z.output<typeof OperationsEnvSchema>;

/** What the operator command (`keys`) needs: the database only, so it runs where no API key is configured. */
const DatabaseEnvSchema = z
  .object({
    DATABASE_URL: EnvSchema.innerType().shape.DATABASE_URL,
    DATABASE_POOL_SIZE: EnvSchema.innerType().shape.DATABASE_POOL_SIZE,
    SQLITE_BUSY_TIMEOUT_MS: EnvSchema.innerType().shape.SQLITE_BUSY_TIMEOUT_MS,
    NODE_ENV: EnvSchema.innerType().shape.NODE_ENV,
    ADMIN_ORIGIN: EnvSchema.innerType().shape.ADMIN_ORIGIN,
  })
  .transform((env) => ({
    /** As Config.adminOrigin: the base of the invitation links the staff command prints. */
    adminOrigin: env.ADMIN_ORIGIN
      ? new URL(env.ADMIN_ORIGIN).origin
      : env.NODE_ENV === "production"
        ? undefined
        : DEV_ADMIN_ORIGIN,
    databaseUrl: env.DATABASE_URL.startsWith("file:")
      ? `file:${path.resolve(sqliteFilePath(env.DATABASE_URL))}`
      : env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    sqliteBusyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS,
  }));
export type DatabaseConfig = z.output<typeof DatabaseEnvSchema>;

export class ConfigError extends Error {}

/** Loads apps/api/.env into the environment when present; variables already set win. */
export function loadDotEnvFile(file = path.join(API_ROOT, ".env")): void {
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) process.env[key] ??= value;
}

/** The database settings alone (see DatabaseEnvSchema); throws a ConfigError naming each bad variable. */
export function readDatabaseConfig(source: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = DatabaseEnvSchema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    `Invalid configuration: ${result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
  );
}

/** The data commands' settings (see OperationsEnvSchema); throws a ConfigError naming each bad variable. */
export function readOperationsConfig(source: NodeJS.ProcessEnv = process.env): OperationsConfig {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = OperationsEnvSchema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    `Invalid configuration: ${result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
  );
}

/** Parses the environment once; throws a ConfigError whose message is one line naming each bad variable. */
export function readConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = EnvSchema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
}
