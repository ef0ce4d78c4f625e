import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { test as base, expect, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import { addVirtualAuthenticator } from "./virtual-authenticator.js";

/**
 * Two API replicas on one PostgreSQL database, as a scaled-out store runs them. A person signs in
 * with a passkey on replica B (opened at http://localhost, its ADMIN_ORIGIN: WebAuthn refuses an IP
 * address); an admin disables them through replica A; B must send them back to sign-in, with the
 * reason, within 2 s, though B holds their 10-minute token in its own memory.
 */
const REPLICA_A_PORT = 3103;
const REPLICA_B_PORT = 3102;
const APP_URL = `http://localhost:${REPLICA_B_PORT}`;
/** The server .ci/run provides (a fresh Debian cluster wants the password it names over TCP). */
const PG_ADMIN_URL = process.env["PG_TEST_URL"] ?? "postgresql://postgres:postgres@127.0.0.1:5432/postgres";

interface Replicas {
  adminUrl: string;
}

function psql(sql: string): void {
  execFileSync("psql", [PG_ADMIN_URL, "-v", "ON_ERROR_STOP=1", "-c", sql], { stdio: "pipe" });
}

async function startReplica(port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["../apps/api/dist/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL_PRODUCTION: `${APP_URL}/v1`,
      API_KEYS: E2E_API_KEY,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MIN: "0",
      AUTH_FAILURES_PER_MIN: "0",
      WEB_DIST_DIR: "../apps/web/dist",
      ADMIN_ORIGIN: APP_URL,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`replica on ${port} exited: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return child;
    if (Date.now() > deadline) throw new Error(`replica on ${port} not ready in 60 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const test = base.extend<{ replicas: Replicas }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  replicas: async ({}, use) => {
    const database = `petstore_e2e_replicas_${process.pid}`;
    psql(`DROP DATABASE IF EXISTS ${database}`);
    psql(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(PG_ADMIN_URL);
    databaseUrl.pathname = `/${database}`;
    const url = databaseUrl.toString();
    // One after the other: the first migrates the new database.
    const a = await startReplica(REPLICA_A_PORT, url);
    const b = await startReplica(REPLICA_B_PORT, url);
    try {
      await use({ adminUrl: `http://127.0.0.1:${REPLICA_A_PORT}` });
    } finally {
      for (const child of [a, b]) child.kill("SIGTERM");
      await Promise.all(
        [a, b].map(
          (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve))),
        ),
      );
      psql(`DROP DATABASE IF EXISTS ${database}`);
    }
  },
});

async function adminCall(adminUrl: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${adminUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${E2E_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  expect(response.status, `${path}`).toBeLessThan(300);
  return response.json();
}

async function signedInPerson(page: Page, adminUrl: string): Promise<{ staffId: number }> {
  const invited = (await adminCall(adminUrl, "/admin/v1/staff", {
    email: "rosa@example.test",
    name: "Rosa Diaz",
    role: "write",
  })) as {
    staff: { id: number };
    invitationUrl: string;
  };
  expect(invited.invitationUrl.startsWith(`${APP_URL}/invite#`)).toBe(true);
  await addVirtualAuthenticator(page);
  await page.goto(invited.invitationUrl);
  await expect(page.getByRole("heading", { name: "Welcome, Rosa Diaz" })).toBeVisible();
  await page.getByRole("button", { name: "Create a passkey", exact: true }).click();
  await expect(page.getByText("Signed in as Rosa Diaz (write)", { exact: true })).toBeVisible();
  return { staffId: invited.staff.id };
}

// Two API processes to start (the first migrates a new database) and to drain at the end.
test.setTimeout(120_000);

test("a person disabled on replica A is sent back to sign-in on replica B by itself, with the reason, before their next action", async ({
  page,
  replicas,
}) => {
  const { staffId } = await signedInPerson(page, replicas.adminUrl);
  await page.getByRole("link", { name: "New pet", exact: true }).click();
  await page.getByLabel("Name", { exact: true }).fill("Biscuit");
  await page.getByLabel("Category ID", { exact: true }).fill("1");

  await adminCall(replicas.adminUrl, `/admin/v1/staff/${staffId}/disable`);
  const disabledAt = Date.now();
  // Replica B learns of it from the database within 2 s (its key set); the page's event stream ends with its
  // credential then, and reconnecting after the stream's retry hint finds the session ended.
  await expect(page.getByRole("button", { name: "Sign in with a passkey", exact: true })).toBeVisible({
    timeout: 5_000,
  });
  console.log(
    `[replicas] disabled on A; replica B's page back at sign-in by itself after ${Date.now() - disabledAt} ms`,
  );
  await expect(page.getByRole("alert")).toContainText(/disabled|ended|sign in again/i);
  // Refused, not stored: the pet was never created.
  const pets = (await (
    await fetch(`${replicas.adminUrl}/v1/pets?limit=100`, { headers: { authorization: `Bearer ${E2E_API_KEY}` } })
  ).json()) as Array<{ name: string }>;
  expect(pets.map((pet) => pet.name)).not.toContain("Biscuit");
});
