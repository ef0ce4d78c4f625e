import { describe, expect, it } from "vitest";
import { buildAccessOpenApiDocument } from "./access-openapi.js";
import { buildOpenApiDocument } from "./openapi.js";

const servers = { production: "https://api.petstore.test/v1", staging: "https://staging.petstore.test/v1" };
interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  responses: Record<string, unknown>;
}
const document = buildAccessOpenApiDocument(servers) as unknown as {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
};

describe("the access OpenAPI document", () => {
  it("has the five access operations under /admin/v1, each with bearer security", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual([
      "GET /audit-events listAuditEvents",
      "GET /keys listKeys",
      "GET /session getSession",
      "POST /keys createKey",
      "POST /keys/{keyId}/revoke revokeKey",
    ]);
    expect(document.servers.map((server) => server.url)).toEqual([
      "https://api.petstore.test/admin/v1",
      "https://staging.petstore.test/admin/v1",
    ]);
    for (const item of Object.values(document.paths)) for (const op of Object.values(item)) expect(op.security).toEqual([{ bearerAuth: [] }]);
  });

  it("declares 403 on every admin operation and plain integer parameters", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const op of Object.values(item)) if (path !== "/session") expect(Object.keys(op.responses)).toContain("403");
    }
    const keyId = document.paths["/keys/{keyId}/revoke"]?.["post"]?.parameters?.find((p) => p.name === "keyId");
    expect(keyId?.schema).toMatchObject({ type: "integer", format: "int64", minimum: 1 });
    const limit = document.paths["/audit-events"]?.["get"]?.parameters?.find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
  });

  it("leaves the interface's document with its three operations and no access path", () => {
    const petstore = buildOpenApiDocument(servers) as unknown as { paths: Record<string, unknown> };
    expect(Object.keys(petstore.paths).sort()).toEqual(["/pets", "/pets/{petId}"]);
  });
});
