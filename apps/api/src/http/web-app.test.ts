import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, type TestApp } from "../test/test-app.js";
import { createHash } from "node:crypto";
import { createTestAppWithWebDist, FIXTURE_ASSET, FIXTURE_INDEX_HTML, FIXTURE_INLINE_CSS } from "../test/web-dist.js";

/** What Chromium sends when the user opens or reloads a page. */
const NAVIGATION_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
async function startWithWebApp() {
  t = await createTestAppWithWebDist();
  return t.app;
}

describe("the admin app at / (WEB_DIST_DIR)", () => {
  it.each(["/", "/pets?status=sold", "/pets/42", "/pets/new", "/pets/import", "/sign-in", "/anything/else"])(
    "a browser navigation to %s gets index.html, so the client-side route survives a reload",
    async (url) => {
      const app = await startWithWebApp();
      const response = await request(app).get(url).set("Accept", NAVIGATION_ACCEPT);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.text).toBe(FIXTURE_INDEX_HTML);
    },
  );

  it("answers HEAD for a navigation like GET, without a body", async () => {
    const app = await startWithWebApp();
    const response = await request(app).head("/pets/7").set("Accept", "text/html");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.text).toBeUndefined();
  });

  it("serves the build's files as files, whatever the Accept", async () => {
    const app = await startWithWebApp();
    const asset = await request(app).get(FIXTURE_ASSET).expect(200);
    expect(asset.headers["content-type"]).toMatch(/javascript/);
    expect(asset.text).toContain('console.log("app")');
    const favicon = await request(app).get("/favicon.svg").set("Accept", "image/*").expect(200);
    expect(favicon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
  });

  it("serves a hashed asset precompressed, Brotli first, to a client that accepts it, with Vary: Accept-Encoding", async () => {
    const app = await startWithWebApp();
    const identity = await request(app).get(FIXTURE_ASSET).set("Accept-Encoding", "identity").expect(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers["vary"]).toMatch(/Accept-Encoding/);
    for (const [accept, encoding] of [
      ["br, gzip, deflate", "br"],
      ["gzip, deflate", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["gzip;q=0.5, br;q=1", "br"],
      // Chromium's order: gzip listed first, Brotli preferred all the same.
      ["gzip, deflate, br, zstd", "br"],
      ["br;q=0.5, gzip", "gzip"],
      ["*", "br"],
    ] as const) {
      const answer = await request(app).get(FIXTURE_ASSET).set("Accept-Encoding", accept).expect(200);
      expect(answer.headers["content-encoding"], accept).toBe(encoding);
      expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(answer.headers["vary"]).toMatch(/Accept-Encoding/);
      // The same caching as the uncompressed file: a hashed asset is immutable.
      expect(answer.headers["cache-control"]).toBe(identity.headers["cache-control"]);
      // supertest decompresses: the bytes are the asset's.
      expect(answer.text).toBe(identity.text);
    }
    const head = await request(app).head(FIXTURE_ASSET).set("Accept-Encoding", "br").expect(200);
    expect(head.headers["content-encoding"]).toBe("br");
    // A file with no compressed copy is served as it is, and says nothing of encodings.
    const favicon = await request(app).get("/favicon.svg").set("Accept-Encoding", "br").expect(200);
    expect(favicon.headers["content-encoding"]).toBeUndefined();
  });

  it("serves the page precompressed to a navigation that accepts it, and its CSP allows the inline stylesheet by hash only", async () => {
    const app = await startWithWebApp();
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["identity", undefined],
    ] as const) {
      const page = await request(app)
        .get("/pets/7")
        .set("Accept", NAVIGATION_ACCEPT)
        .set("Accept-Encoding", accept)
        .expect(200);
      expect(page.headers["content-encoding"], accept).toBe(encoding);
      expect(page.headers["content-type"]).toMatch(/^text\/html; charset=utf-8$/i);
      expect(page.headers["vary"]).toMatch(/Accept-Encoding/);
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(page.text).toBe(FIXTURE_INDEX_HTML);
    }
    const hash = createHash("sha256").update(FIXTURE_INLINE_CSS).digest("base64");
    const styleSrc = (response: request.Response) =>
      String(response.headers["content-security-policy"])
        .split("; ")
        .find((directive) => directive.startsWith("style-src "));
    const page = await request(app).get("/").set("Accept", NAVIGATION_ACCEPT);
    expect(styleSrc(page)).toBe(`style-src 'self' 'sha256-${hash}'`);
    // The assets carry the same policy; the API's answers keep theirs.
    expect(styleSrc(await request(app).get(FIXTURE_ASSET))).toBe(`style-src 'self' 'sha256-${hash}'`);
    expect(styleSrc(await request(app).get("/healthz"))).toBeUndefined();
  });

  it("a missing hashed asset is the JSON 404, never index.html", async () => {
    const app = await startWithWebApp();
    expectError(await request(app).get("/assets/app-gone99.js").set("Accept", "*/*"), 404, "NOT_FOUND");
    expectError(await request(app).get("/assets/app-gone99.js").set("Accept", NAVIGATION_ACCEPT), 404, "NOT_FOUND");
  });

  it("a request that is not a browser navigation gets the JSON 404", async () => {
    const app = await startWithWebApp();
    expectError(await request(app).get("/pets/42"), 404, "NOT_FOUND");
    expectError(await request(app).get("/pets/42").set("Accept", "*/*"), 404, "NOT_FOUND");
    expectError(await request(app).get("/pets/42").set("Accept", "application/json"), 404, "NOT_FOUND");
    expectError(await request(app).get("/pets/42").set("Accept", "text/html;q=0, */*"), 404, "NOT_FOUND");
    expectError(await request(app).post("/pets/42").set("Accept", NAVIGATION_ACCEPT).send({}), 404, "NOT_FOUND");
  });

  it.each(["/v1/nope", "/v1", "/metrics", "/healthz/nope", "/readyz/nope"])(
    "%s is never the admin app, even for a browser navigation",
    async (url) => {
      const app = await startWithWebApp();
      expectError(
        await request(app).get(url).set("Accept", NAVIGATION_ACCEPT).set("Authorization", bearer()),
        404,
        "NOT_FOUND",
      );
    },
  );

  it("the API, its docs and the probes answer as before beside the app", async () => {
    const app = await startWithWebApp();
    const pets = await request(app)
      .get("/v1/pets")
      .set("Accept", NAVIGATION_ACCEPT)
      .set("Authorization", bearer())
      .expect(200);
    expect(pets.headers["content-type"]).toMatch(/^application\/json/);
    expect((await request(app).get("/healthz").set("Accept", NAVIGATION_ACCEPT).expect(200)).body).toEqual({
      status: "ok",
    });
    expect((await request(app).get("/docs/").set("Accept", NAVIGATION_ACCEPT).expect(200)).text).toContain(
      "swagger-ui",
    );
    expect(
      (await request(app).get("/v1/openapi.json").set("Accept", NAVIGATION_ACCEPT).expect(200)).body.openapi,
    ).toBeDefined();
  });

  it("without a build the API runs alone: a navigation is the JSON 404", async () => {
    t = await createTestApp();
    expect(t.config.webDistDir).toBeUndefined();
    expectError(await request(t.app).get("/pets/42").set("Accept", NAVIGATION_ACCEPT), 404, "NOT_FOUND");
  });
});
