import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi.js";

const servers = { production: "https://api.petstore.test/v1", staging: "https://staging.petstore.test/v1" };
const document = buildOpenApiDocument(servers) as unknown as {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string; description: string }>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  paths: Record<string, Record<string, Operation>>;
};
interface Schema {
  type?: string;
  format?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}
interface Operation {
  operationId: string;
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const operation = (path: string, method: string): Operation => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
};
const jsonSchema = (op: Operation, status: string) => op.responses[status]?.content?.["application/json"]?.schema;
const PET_STATUS = ["available", "pending", "sold"];

describe("OpenAPI document, point by point against the interface spec", () => {
  it("is OpenAPI 3, version 1.0.0, with production and staging servers from configuration", () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe("1.0.0");
    expect(document.servers).toEqual([
      { url: servers.production, description: "production" },
      { url: servers.staging, description: "staging" },
    ]);
    for (const server of document.servers) expect(server.url).toMatch(/\/v1$/);
  });

  it("has exactly the three operations, at the spec's paths and methods", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(["GET /pets listPets", "GET /pets/{petId} getPet", "POST /pets createPet"]);
  });

  it("requires HTTP bearer authentication on every operation", () => {
    expect(document.components.securitySchemes["bearerAuth"]).toMatchObject({ type: "http", scheme: "bearer" });
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(jsonSchema(op, "401")?.required).toEqual(["code", "message", "status"]);
      }
    }
  });

  it("listPets: limit 1..100 default 20, status enum, 200 Pets, 401", () => {
    const op = operation("/pets", "get");
    const limit = op.parameters.find((p) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } });
    expect(limit?.required).not.toBe(true);
    const status = op.parameters.find((p) => p.name === "status");
    expect(status).toMatchObject({ in: "query", schema: { type: "string", enum: PET_STATUS } });
    expect(status?.required).not.toBe(true);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401"]));
    const pets = jsonSchema(op, "200");
    expect(pets?.type).toBe("array");
    expect(pets?.items?.required?.sort()).toEqual(["categoryId", "id", "name"]);
    expect(op.deprecated).not.toBe(true);
  });

  it("listPets: optional name query, described as an extension, with the name rule", () => {
    const op = operation("/pets", "get");
    const name = op.parameters.find((p) => p.name === "name") as (Operation["parameters"][number] & { description?: string }) | undefined;
    expect(name).toMatchObject({ in: "query", schema: { type: "string", minLength: 1, maxLength: 100 } });
    expect(name?.required).not.toBe(true);
    expect(name?.description).toMatch(/^Extension: /);
    const pattern = new RegExp((name?.schema as { pattern: string }).pattern);
    expect(pattern.test("Émile")).toBe(true);
    expect(pattern.test("a\u0000")).toBe(false);
  });

  it("createPet: NewPet body with name and categoryId required, 201 Pet, 400, 401", () => {
    const op = operation("/pets", "post");
    expect(op.requestBody?.required).toBe(true);
    const body = op.requestBody?.content["application/json"]?.schema;
    expect(body?.required?.sort()).toEqual(["categoryId", "name"]);
    expect(body?.properties?.["name"]?.type).toBe("string");
    expect(body?.properties?.["categoryId"]).toMatchObject({ type: "integer", format: "int64" });
    expect(body?.properties?.["status"]?.enum).toEqual(PET_STATUS);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["201", "400", "401"]));
    const pet = jsonSchema(op, "201");
    expect(pet?.required?.sort()).toEqual(["categoryId", "id", "name"]);
    expect(pet?.properties?.["id"]).toMatchObject({ type: "integer", format: "int64" });
    expect(pet?.properties?.["status"]?.enum).toEqual(PET_STATUS);
    expect(op.deprecated).not.toBe(true);
  });

  it("createPet: optional Idempotency-Key header, 409 and 422 with their codes", () => {
    const op = operation("/pets", "post");
    const key = op.parameters.find((p) => p.in === "header");
    expect(key).toMatchObject({ name: "Idempotency-Key", schema: { type: "string", minLength: 1, maxLength: 255 } });
    expect(key?.required).not.toBe(true);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["409", "422"]));
    expect(jsonSchema(op, "409")?.properties?.["code"]?.enum).toEqual(
      expect.arrayContaining(["IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_REUSED"]),
    );
  });

  it("getPet: deprecated, petId an int64 path parameter, 200 Pet, 401, 404", () => {
    const op = operation("/pets/{petId}", "get");
    expect(op.deprecated).toBe(true);
    const petId = op.parameters.find((p) => p.name === "petId");
    expect(petId).toMatchObject({ in: "path", required: true, schema: { type: "integer", format: "int64", minimum: 1 } });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401", "404"]));
    expect(jsonSchema(op, "200")?.required?.sort()).toEqual(["categoryId", "id", "name"]);
    expect(jsonSchema(op, "404")?.properties?.["code"]?.enum).toContain("NOT_FOUND");
  });

  it("describes every error as the Error object", () => {
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const schema = response.content?.["application/json"]?.schema;
          expect(schema?.required, `${op.operationId} ${status}`).toEqual(["code", "message", "status"]);
          expect(schema?.properties?.["status"]?.type).toBe("integer");
        }
      }
    }
  });
});
