import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const API_ROOT = path.join(REPO, "apps", "api");
const TSX = path.join(API_ROOT, "node_modules", ".bin", "tsx");
const PROVIDER = path.join(API_ROOT, "src", "test", "oidc-provider.ts");

/** The test provider's accounts map to roles with this (apps/api/src/test/oidc-provider.ts, TEST_ROLE_MAP). */
const ROLE_MAP = "petstore-admins=admin,front-desk=write";
export const SSO_DISPLAY_NAME = "Test Workspace";

export interface SsoServers {
  /** `http://localhost:<port>`: ADMIN_ORIGIN, where the browser opens the app (the API serves it). */
  appOrigin: string;
  /** The OpenID provider, `https://localhost:<port>`, under a throwaway certificate authority. */
  issuer: string;
}

/** A port free now on 127.0.0.1: the redirect URI must be registered at the provider before the API starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function collect(child: ChildProcess): () => string {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** Starts the provider in standalone mode; resolves with its first line, `{ issuer, clientId, caFile }`. */
async function startProvider(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; issuer: string; clientId: string; caFile: string }> {
  const child = spawn(TSX, [PROVIDER], {
    cwd: API_ROOT,
    env: { PATH: process.env["PATH"] ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collect(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const line = output()
      .split("\n")
      .find((candidate) => candidate.startsWith("{"));
    if (line) return { child, ...(JSON.parse(line) as { issuer: string; clientId: string; caFile: string }) };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop(child);
  throw new Error(`the test OpenID provider did not start:\n${output()}`);
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the API with single sign-on did not become ready:\n${output()}`);
}

/**
 * `ssoServers` (one per worker): the test OpenID provider (standalone, `tsx src/test/oidc-provider.ts`)
 * and a built API of its own in production mode, fresh SQLite file, serving the admin app's build, with
 * ADMIN_ORIGIN `http://localhost:<port>` (WebAuthn and the cookies want `localhost`, not an IP) and the
 * OIDC settings; NODE_EXTRA_CA_CERTS makes Node trust the provider's throwaway authority.
 * `ssoPage`: a page in a context that ignores that authority's certificate errors (the browser does not
 * read NODE_EXTRA_CA_CERTS), opened on the app's origin.
 */
export const test = base.extend<{ ssoPage: Page }, { ssoServers: SsoServers }>({
  ssoServers: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture takes from this pattern
    async ({}, use) => {
      const folder = mkdtempSync(path.join(tmpdir(), "petstore-e2e-sso-"));
      const port = await freePort();
      const appOrigin = `http://localhost:${port}`;
      const clientSecret = randomBytes(32).toString("base64url");
      const provider = await startProvider({
        OIDC_TEST_REDIRECT_URIS: `${appOrigin}/admin/v1/sso/callback`,
        OIDC_TEST_CLIENT_SECRET: clientSecret,
        OIDC_TEST_CA_FILE: path.join(folder, "ca.pem"),
      });
      const api = spawn(process.execPath, [path.join(API_ROOT, "dist", "main.js")], {
        cwd: API_ROOT,
        env: {
          PATH: process.env["PATH"] ?? "",
          NODE_ENV: "production",
          HOST: "127.0.0.1",
          PORT: String(port),
          PUBLIC_URL_PRODUCTION: `${appOrigin}/v1`,
          API_KEYS: E2E_API_KEY,
          DATABASE_URL: `file:${path.join(folder, "sso.db")}`,
          SEED: "false",
          LOG_LEVEL: "warn",
          RATE_LIMIT_PER_MIN: "0",
          AUTH_FAILURES_PER_MIN: "0",
          SHUTDOWN_DRAIN_MS: "0",
          WEB_DIST_DIR: path.join(REPO, "apps", "web", "dist"),
          ADMIN_ORIGIN: appOrigin,
          OIDC_ISSUER: provider.issuer,
          OIDC_CLIENT_ID: provider.clientId,
          OIDC_CLIENT_SECRET: clientSecret,
          OIDC_ROLE_MAP: ROLE_MAP,
          OIDC_SCOPES: "groups",
          OIDC_DISPLAY_NAME: SSO_DISPLAY_NAME,
          NODE_EXTRA_CA_CERTS: provider.caFile,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const apiOutput = collect(api);
      try {
        await waitUntilReady(`http://127.0.0.1:${port}`, api, apiOutput);
        await use({ appOrigin, issuer: provider.issuer });
      } finally {
        await stop(api);
        await stop(provider.child);
        rmSync(folder, { recursive: true, force: true });
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
  ssoPage: async ({ browser, ssoServers }, use) => {
    const context = await browser.newContext({
      baseURL: ssoServers.appOrigin,
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await use(page);
    await context.close();
  },
});

/** At the provider's login page: `Email`, then `Continue`. */
export async function signInAtProvider(page: Page, servers: SsoServers, email: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.origin === servers.issuer);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

export { expect };
