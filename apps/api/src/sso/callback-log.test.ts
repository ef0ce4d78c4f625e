import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { loggableUrl } from "./callback-path.js";

describe("loggableUrl", () => {
  it("drops the query under /admin/v1/sso/, whatever the case, and keeps every other URL", () => {
    expect(loggableUrl("/admin/v1/sso/callback?code=c0de&state=st4te&iss=x")).toBe(
      "/admin/v1/sso/callback?(query not logged)",
    );
    expect(loggableUrl("/ADMIN/v1/SSO/callback/?code=c0de")).toBe("/ADMIN/v1/SSO/callback/?(query not logged)");
    expect(loggableUrl("/admin/v1/sso/callback")).toBe("/admin/v1/sso/callback");
    expect(loggableUrl("/admin/v1/sso/start")).toBe("/admin/v1/sso/start");
    expect(loggableUrl("/v1/pets?limit=2")).toBe("/v1/pets?limit=2");
    expect(loggableUrl("/admin/v1/ssox?code=1")).toBe("/admin/v1/ssox?code=1");
  });
});

describe.each(TEST_PROVIDERS.slice(0, 1))("the request log on %s", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  it("never shows the single sign-on callback's code or state", async () => {
    await request(t.app).get("/admin/v1/sso/callback?code=SECRET-CODE-123&state=SECRET-STATE-456");
    const lines = t.logs.filter((line) => line.includes("/admin/v1/sso/callback"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of t.logs) {
      expect(line).not.toContain("SECRET-CODE-123");
      expect(line).not.toContain("SECRET-STATE-456");
    }
  });
});
