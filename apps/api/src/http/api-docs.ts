import { API_PATH_PREFIX } from "@petstore/contract";
import { buildOpenApiDocument, type OpenApiServers } from "@petstore/contract/openapi";
import { Router } from "express";
import swaggerUi from "swagger-ui-express";
import { setHeaders, type HeaderSet } from "./security-headers.js";

export const OPENAPI_PATH = `${API_PATH_PREFIX}/openapi.json`;

/** The OpenAPI document generated from the contract, and Swagger UI over it at `/docs`. */
export function apiDocs(servers: OpenApiServers, docsHeaders: HeaderSet): Router {
  const document = buildOpenApiDocument(servers);
  const router = Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(document);
  });
  // Swagger UI answers every path under /docs (its page, its files), so nothing here falls through to the API's 404.
  router.use(
    "/docs",
    setHeaders(docsHeaders),
    swaggerUi.serve,
    // No validator badge: it would load an image from validator.swagger.io, which the CSP refuses anyway.
    swaggerUi.setup(undefined, { swaggerOptions: { url: OPENAPI_PATH, validatorUrl: null } }),
  );
  return router;
}
