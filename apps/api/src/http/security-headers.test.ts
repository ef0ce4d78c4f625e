import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, type TestApp } from "../test/test-app.js";
import { createHash } from "node:crypto";
import { createTestAppWithWebDist, FIXTURE_ASSET, FIXTURE_INLINE_CSS } from "../test/web-dist.js";

/** Every header that changes what a browser does with a response: each set is compared over all of them. */
const SECURITY_HEADERS = [
  "cache-control",
  "content-security-policy",
  "content-security-policy-report-only",
  "cross-origin-embedder-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

function securityHeadersOf(response: request.Response): Record<string, string> {
  return Object.fromEntries(
    SECURITY_HEADERS.filter((name) => response.headers[name] !== undefined).map((name) => [
      name,
      response.headers[name] as string,
    ]),
  );
}

const HSTS = { "strict-transport-security": "max-age=31536000; includeSubDomains" };
const API_SET = {
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};
/** The build's one inline stylesheet, allowed by its hash (web-app.ts, inlineStyleSources). */
const INLINE_STYLE = `'sha256-${createHash("sha256").update(FIXTURE_INLINE_CSS).digest("base64")}'`;
const APP_CSP =
  `default-src 'self'; script-src 'self'; style-src 'self' ${INLINE_STYLE}; img-src 'self' data:; connect-src 'self'; ` +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
const APP_PAGE_SET = {
  "cache-control": "no-cache",
  "content-security-policy": APP_CSP,
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};
const APP_ASSET_SET = { ...APP_PAGE_SET, "cache-control": "public, max-age=31536000, immutable" };
const DOCS_SET = {
  "cache-control": "no-cache",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self' https://prod.example.org https://staging.example.org; " +
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};
const NAVIGATION = "text/html,application/xhtml+xml,*/*;q=0.8";
const PRODUCTION_KEY = "production-key-0123456789abcdef0123456789";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
async function start(env: Record<string, string> = {}) {
  t = await createTestAppWithWebDist({
    PUBLIC_URL_PRODUCTION: "https://prod.example.org/v1",
    PUBLIC_URL_STAGING: "https://staging.example.org/v1",
    ...env,
  });
  return t.app;
}

/** Each kind of response, as a client meets it. */
const responses = {
  "/v1 200": (app: TestApp["app"]) => request(app).get("/v1/pets").set("Authorization", bearer()).expect(200),
  "/v1 401": (app: TestApp["app"]) => request(app).get("/v1/pets").expect(401),
  "/v1 404": (app: TestApp["app"]) => request(app).get("/v1/pets/1/nope").set("Authorization", bearer()).expect(404),
  "/v1 405": (app: TestApp["app"]) => request(app).delete("/v1/pets").set("Authorization", bearer()).expect(405),
  "/v1 400": (app: TestApp["app"]) => request(app).get("/v1/pets?limit=0").set("Authorization", bearer()).expect(400),
  "/v1 413": (app: TestApp["app"]) =>
    request(app)
      .post("/v1/pets")
      .set("Authorization", bearer())
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ name: "x".repeat(20_000), categoryId: 1 }))
      .expect(413),
  "/v1/openapi.json": (app: TestApp["app"]) => request(app).get("/v1/openapi.json").expect(200),
  "non-/v1 JSON 404": (app: TestApp["app"]) =>
    request(app).get("/pets/42").set("Accept", "application/json").expect(404),
  "missing asset 404": (app: TestApp["app"]) => request(app).get("/assets/gone-000000.js").expect(404),
  "/healthz": (app: TestApp["app"]) => request(app).get("/healthz").expect(200),
  "/readyz": (app: TestApp["app"]) => request(app).get("/readyz").expect(200),
};

describe("response headers by kind of response", () => {
  it.each(Object.keys(responses) as Array<keyof typeof responses>)(
    "%s: exactly the API set, with a request id",
    async (kind) => {
      const response = await responses[kind](await start());
      expect(securityHeadersOf(response)).toEqual(API_SET);
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it("index.html (a deep link, and / itself): the app's strict CSP, revalidated on every load", async () => {
    const app = await start();
    for (const url of ["/pets/42", "/", "/index.html"]) {
      const response = await request(app).get(url).set("Accept", NAVIGATION).expect(200);
      expect(securityHeadersOf(response)).toEqual(APP_PAGE_SET);
    }
  });

  it("a hashed asset: cached for a year, immutable; an unhashed file beside index.html is revalidated", async () => {
    const app = await start();
    expect(securityHeadersOf(await request(app).get(FIXTURE_ASSET).expect(200))).toEqual(APP_ASSET_SET);
    expect(securityHeadersOf(await request(app).get("/favicon.svg").expect(200))).toEqual(APP_PAGE_SET);
  });

  it("/docs: what Swagger UI needs (inline styles, data: images, the documented servers) and no more", async () => {
    const app = await start();
    for (const url of ["/docs/", "/docs/swagger-ui-init.js", "/docs/swagger-ui-bundle.js"]) {
      expect(securityHeadersOf(await request(app).get(url).expect(200))).toEqual(DOCS_SET);
    }
  });

  it("in production every set adds HSTS", async () => {
    const app = await start({ NODE_ENV: "production", API_KEYS: PRODUCTION_KEY, SEED: "false" });
    const key = bearer(PRODUCTION_KEY);
    expect(securityHeadersOf(await request(app).get("/v1/pets").set("Authorization", key).expect(200))).toEqual({
      ...API_SET,
      ...HSTS,
    });
    expect(securityHeadersOf(await request(app).get("/v1/pets").expect(401))).toEqual({ ...API_SET, ...HSTS });
    expect(securityHeadersOf(await request(app).get("/nope").expect(404))).toEqual({ ...API_SET, ...HSTS });
    expect(securityHeadersOf(await request(app).get("/pets/1").set("Accept", NAVIGATION).expect(200))).toEqual({
      ...APP_PAGE_SET,
      ...HSTS,
    });
    expect(securityHeadersOf(await request(app).get(FIXTURE_ASSET).expect(200))).toEqual({ ...APP_ASSET_SET, ...HSTS });
    expect(securityHeadersOf(await request(app).get("/docs/").expect(200))).toEqual({ ...DOCS_SET, ...HSTS });
  });
});
