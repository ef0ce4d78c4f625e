import { initContract } from "@ts-rest/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildContractDocument, type DocumentOptions } from "./openapi-builder.js";
import type { RouteMetadata } from "./route-metadata.js";

const c = initContract();
const options: DocumentOptions = {
  info: { title: "Things", version: "1.0.0" },
  servers: [{ url: "https://things.test/v9", description: "production" }],
  tags: [{ name: "things", description: "The things." }],
  pathPrefix: "/v9",
  securityDescription: "A key.",
  words: {
    schemaNames: new Map(),
    schemaExamples: {},
    parameters: {},
    statusResponses: { "200": { description: "The things." } },
    operationResponses: {},
    requestBodies: {},
    headers: {},
    commonHeaders: [],
    statusHeaders: {},
    operationHeaders: {},
  },
};
const contractTagged = (metadata: RouteMetadata) =>
  c.router(
    { listThings: { method: "GET", path: "/things", metadata, responses: { 200: z.array(z.string()) } } },
    { pathPrefix: "/v9" },
  );

describe("the OpenAPI builder", () => {
  it("tags each operation with its route's metadata.tag", () => {
    const document = buildContractDocument(
      contractTagged({ credential: "bearer", scope: "read", tag: "things" }),
      options,
    );
    expect(document.paths["/things"]?.["get"]?.tags).toEqual(["things"]);
  });

  it("stops at a route without a tag, or with a tag the document does not list", () => {
    const untagged = c.router(
      { listThings: { method: "GET", path: "/things", responses: { 200: z.array(z.string()) } } },
      { pathPrefix: "/v9" },
    );
    // @ts-expect-error -- the compiler refuses a route without its metadata (scope and tag) first.
    expect(() => buildContractDocument(untagged, options)).toThrow("listThings: no tag; add metadata.tag to its route");
    expect(() =>
      buildContractDocument(contractTagged({ credential: "bearer", scope: "read", tag: "stuff" }), options),
    ).toThrow("listThings: its tag stuff is not one of the document's tags");
  });

  it("stops at no server, or at a server whose URL does not end in the path prefix", () => {
    const contract = contractTagged({ credential: "bearer", scope: "read", tag: "things" });
    expect(() => buildContractDocument(contract, { ...options, servers: [] })).toThrow(
      "Things: no server; a document needs at least one",
    );
    expect(() =>
      buildContractDocument(contract, {
        ...options,
        servers: [{ url: "https://things.test/v9/", description: "production" }],
      }),
    ).toThrow("Things: server https://things.test/v9/ does not end in /v9");
  });
});
