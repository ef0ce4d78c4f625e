// The OpenAPI document from the package's "./openapi" subpath, for generators in other languages.
import { buildOpenApiDocument } from "@petstore/contract/openapi";

// The servers, in order: where the API answers (each URL ends in /v1).
const document = buildOpenApiDocument([
  { url: "https://api.petstore.example/v1", description: "production" },
  { url: "https://staging.petstore.example/v1", description: "staging" },
]);

console.log(
  JSON.stringify({
    openapi: document.openapi,
    servers: (document.servers ?? []).map((server) => server.url),
    paths: Object.keys(document.paths),
  }),
);
