import { API_PATH_PREFIX } from "@petstore/contract";
import { buildOpenApiDocument, type OpenApiServers } from "@petstore/contract/openapi";
import { Router } from "express";
import swaggerUi from "swagger-ui-express";

export const OPENAPI_PATH = `${API_PATH_PREFIX}/openapi.json`;

/** The OpenAPI document generated from the contract, and Swagger UI over it at `/docs`. */
export function apiDocs(servers: OpenApiServers): Router {
  const document = buildOpenApiDocument(servers);
  const router = Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(document);
  });
  router.use("/docs", swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: OPENAPI_PATH } }));
  return router;
}
