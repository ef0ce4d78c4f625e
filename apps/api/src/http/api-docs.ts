import { ADMIN_API_PATH_PREFIX, API_PATH_PREFIX } from "@petstore/contract";
import { buildAccessOpenApiDocument } from "@petstore/contract/access-openapi";
import { buildOpenApiDocument, type OpenApiServers } from "@petstore/contract/openapi";
import { Router } from "express";
import swaggerUi from "swagger-ui-express";
import { setHeaders, type HeaderSet } from "./security-headers.js";

export const OPENAPI_PATH = `${API_PATH_PREFIX}/openapi.json`;
/** The staff-access operations' own document: served without a key, like the interface's. */
export const ACCESS_OPENAPI_PATH = `${ADMIN_API_PATH_PREFIX}/openapi.json`;

/** The OpenAPI documents generated from the contracts, and Swagger UI over them at `/docs`. */
export function apiDocs(servers: OpenApiServers, docsHeaders: HeaderSet): Router {
  const document = buildOpenApiDocument(servers);
  const accessDocument = buildAccessOpenApiDocument(servers);
  const router = Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(document);
  });
  router.get(ACCESS_OPENAPI_PATH, (_req, res) => {
    res.json(accessDocument);
  });
  // Swagger UI answers every path under /docs (its page, its files), so nothing here falls through to the API's 404.
  router.use(
    "/docs",
    setHeaders(docsHeaders),
    swaggerUi.serve,
    // No validator badge: it would load an image from validator.swagger.io, which the CSP refuses anyway.
    // Both documents, the interface's first (Swagger UI's definition selector).
    swaggerUi.setup(undefined, {
      swaggerOptions: {
        urls: [
          { url: OPENAPI_PATH, name: "Petstore" },
          { url: ACCESS_OPENAPI_PATH, name: "Staff access" },
        ],
        validatorUrl: null,
      },
    }),
  );
  return router;
}
