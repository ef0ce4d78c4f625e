// The OpenAPI document from the package's "./openapi" subpath, for generators in other languages.
import { buildOpenApiDocument } from "@petstore/contract/openapi";

const document = buildOpenApiDocument({
  production: "https://api.petstore.example/v1",
  staging: "https://staging.petstore.example/v1",
});

console.log(
  JSON.stringify({
    openapi: document.openapi,
    servers: (document.servers ?? []).map((server) => server.url),
    paths: Object.keys(document.paths),
  }),
);
