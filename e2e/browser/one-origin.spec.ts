import type { Page, Request } from "@playwright/test";
import { API_URL } from "../playwright.config.js";
import { expect, test } from "./fixtures.js";

/** Every request the page makes, and every Content Security Policy violation Chromium reports. */
function watch(page: Page) {
  const requests: Request[] = [];
  const cspViolations: string[] = [];
  page.on("request", (request) => requests.push(request));
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { requests, cspViolations };
}

test("deep links load the app on a reload, served by the API on its own origin", async ({
  signedInPage: page,
  api,
}) => {
  const created = await api.post("/v1/pets", { data: { name: "Reloaded Rex", categoryId: 3 } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const { requests, cspViolations } = watch(page);

  const deepLinks: Array<[string, () => Promise<void>]> = [
    [
      "/pets?status=sold",
      async () => {
        await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
        await expect(page.getByLabel("Status")).toHaveValue("sold");
      },
    ],
    [`/pets/${id}`, () => expect(page.getByRole("heading", { name: "Reloaded Rex", level: 1 })).toBeVisible()],
    ["/pets/new", () => expect(page.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible()],
  ];
  for (const [path, showsThePage] of deepLinks) {
    await page.goto(path);
    await showsThePage();
    const reload = await page.reload();
    expect(reload?.status()).toBe(200);
    expect(reload?.headers()["content-type"]).toMatch(/^text\/html/);
    expect(reload?.headers()["cache-control"]).toBe("no-cache");
    await showsThePage();
  }

  // One origin: the page, its assets and its API calls all go to the API's host; no call needs CORS.
  const origins = new Set(requests.map((request) => new URL(request.url()).origin));
  expect([...origins]).toEqual([API_URL]);
  expect(requests.filter((request) => request.method() === "OPTIONS")).toEqual([]);
  const apiCalls = requests.filter((request) => new URL(request.url()).pathname.startsWith("/v1/"));
  expect(apiCalls.length).toBeGreaterThan(0);
  for (const call of apiCalls) {
    const response = await call.response();
    expect(response?.headers()["access-control-allow-origin"]).toBeUndefined();
  }
  // The app runs under its strict CSP (no inline script or style, no eval).
  expect(cspViolations).toEqual([]);
});

test("/sign-in survives a reload", async ({ page }) => {
  await page.goto("/sign-in");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
});

/**
 * The interface's OpenAPI document as the API serves it to /docs: each operation ("GET /pets", paths as the
 * document writes them, relative to its /v1 server) and each named schema. The spec's three operations
 * and five schemas are there, and the operations beyond the spec (`x-stability: beta`) beside them.
 */
async function servedDocument(page: Page): Promise<{ operations: string[]; schemas: string[] }> {
  const response = await page.request.get("/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => ["get", "put", "post", "delete", "patch"].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  return { operations: operations.sort(), schemas: Object.keys(document.components.schemas).sort() };
}

test("/docs renders Swagger UI with the document's operations under its CSP", async ({ page }) => {
  const { cspViolations } = watch(page);
  const served = await servedDocument(page);
  expect(served.operations).toEqual(expect.arrayContaining(["GET /pets", "GET /pets/{petId}", "POST /pets"]));
  await page.goto("/docs/");
  await expect(page.locator(".opblock")).toHaveCount(served.operations.length);
  const operations = await page.locator(".opblock-summary").evaluateAll((blocks) =>
    blocks.map((block) => {
      const method = block.querySelector(".opblock-summary-method")?.textContent ?? "";
      // A deprecated operation's path has a class of its own; Swagger UI puts a zero-width space before each "/".
      const path = block.querySelector(".opblock-summary-path, .opblock-summary-path__deprecated")?.textContent ?? "";
      return `${method} ${path.replaceAll("\u200b", "")}`;
    }),
  );
  expect(operations.sort()).toEqual(served.operations);
  expect(cspViolations).toEqual([]);
});

test("/docs shows the spec's named schemas", async ({ page }) => {
  const served = await servedDocument(page);
  expect(served.schemas).toEqual(expect.arrayContaining(["Error", "NewPet", "Pet", "PetStatus", "Pets"]));
  await page.goto("/docs/");
  await expect(page.locator(".opblock")).toHaveCount(served.operations.length);
  const schemas = page.locator("section.models .model-container[data-name]");
  await expect(schemas).toHaveCount(served.schemas.length);
  const names = await schemas.evaluateAll((containers) =>
    containers.map((container) => container.getAttribute("data-name")),
  );
  expect(names.sort()).toEqual(served.schemas);
});

test("the app's JavaScript and CSS come precompressed, the best encoding the browser accepts", async ({ page }) => {
  const compressed: Array<{ url: string; accepts: string; encoding: string | undefined; vary: string | undefined }> =
    [];
  page.on("response", async (response) => {
    if (!/\/assets\/.+\.(js|css)$/.test(response.url())) return;
    const headers = await response.allHeaders();
    const accepts = (await response.request().allHeaders())["accept-encoding"] ?? "";
    compressed.push({ url: response.url(), accepts, encoding: headers["content-encoding"], vary: headers["vary"] });
  });
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  expect(compressed.length).toBeGreaterThan(0);
  for (const asset of compressed) {
    // Chromium offers Brotli on secure origins only (https, and some versions localhost): gzip otherwise.
    expect(asset.encoding, `${asset.url} (Accept-Encoding: ${asset.accepts})`).toBe(
      /\bbr\b/.test(asset.accepts) ? "br" : "gzip",
    );
    expect(asset.vary, asset.url).toMatch(/Accept-Encoding/);
  }
});
