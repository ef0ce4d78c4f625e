import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "../test/test-app.js";

let t: TestApp | undefined;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  await t?.close();
  t = undefined;
});

/** The test app on a real port of 127.0.0.1, as `pnpm dev` serves it (PORT=0: a port the OS picks). */
async function listening(env: Record<string, string> = {}): Promise<number> {
  t = await createTestApp(env);
  const started = createServer(t.app);
  server = started;
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  return (started.address() as AddressInfo).port;
}

/**
 * Where Swagger UI's "Try it out" sends a request: the document's first server, resolved against the URL the
 * document was loaded from (swagger-client's oas3 base URL: `url.resolve(contextUrl, server.url)`).
 */
async function tryItOutBase(documentUrl: string): Promise<URL> {
  const document = (await (await fetch(documentUrl)).json()) as { servers: Array<{ url: string }> };
  return new URL(document.servers[0]!.url, documentUrl);
}

describe("/docs in development", () => {
  it("'Try it out' calls the API on the origin the browser is on, whichever address or port it used", async () => {
    const port = await listening();
    for (const host of ["127.0.0.1", "localhost"]) {
      const origin = `http://${host}:${port}`;
      // The page loads both documents from its own origin (relative URLs in Swagger UI's options).
      const init = await (await fetch(`${origin}/docs/swagger-ui-init.js`)).text();
      expect(init).toContain('"url": "/v1/openapi.json"');
      expect(init).toContain('"url": "/admin/v1/openapi.json"');

      const api = await tryItOutBase(`${origin}/v1/openapi.json`);
      expect(api.href).toBe(`${origin}/v1`);
      const admin = await tryItOutBase(`${origin}/admin/v1/openapi.json`);
      expect(admin.href).toBe(`${origin}/admin/v1`);
      // Same origin: no CORS, nothing for the page's CSP to refuse, and the call is answered.
      const pets = await fetch(`${api.href}/pets?limit=1`, { headers: { Authorization: bearer() } });
      expect(pets.status).toBe(200);
    }
  });

  it("in production (PUBLIC_URL_PRODUCTION), the configured public address, as a client generator needs it", async () => {
    const port = await listening({ PUBLIC_URL_PRODUCTION: "https://api.example-store.com/v1" });
    expect((await tryItOutBase(`http://127.0.0.1:${port}/v1/openapi.json`)).href).toBe(
      "https://api.example-store.com/v1",
    );
    expect((await tryItOutBase(`http://127.0.0.1:${port}/admin/v1/openapi.json`)).href).toBe(
      "https://api.example-store.com/admin/v1",
    );
  });
});
