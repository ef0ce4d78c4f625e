import { describe, expect, it, vi } from "vitest";
import { createPetstoreClient } from "./petstore-client.js";

/** Records the Authorization header of each request and answers an empty list. */
function stubFetch() {
  const authorizations: (string | null)[] = [];
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    authorizations.push(new Headers(init.headers).get("authorization"));
    return new Response("[]", { status: 200, headers: { "Content-Type": "application/json" } });
  });
  return authorizations;
}

describe("createPetstoreClient", () => {
  it("asks the injected source for the key on every request", async () => {
    const authorizations = stubFetch();
    let apiKey: string | null = "first-key";
    const petstore = createPetstoreClient(() => apiKey);

    await petstore.listPets.query({ query: { limit: 1 } });
    apiKey = "rotated-key";
    await petstore.listPets.query({ query: { limit: 1 } });

    expect(authorizations).toEqual(["Bearer first-key", "Bearer rotated-key"]);
  });
});
