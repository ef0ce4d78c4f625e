import type { AppRoute } from "@ts-rest/core";
import { describe, expect, it } from "vitest";
import { buildAccessOpenApiDocument } from "./access-openapi.js";
import { buildOpenApiDocument, V1_SCHEMA_NAMES } from "./openapi.js";
import { operationsOf } from "./operations.js";
import { v1Contract } from "./root.js";
import { OPERATION_SCOPES, type OperationName } from "./operation-scopes.js";
import { NAME_PATTERN, NewPet } from "./schemas.js";

const servers = [
  { url: "https://api.petstore.test/v1", description: "production" },
  { url: "https://staging.petstore.test/v1", description: "staging" },
] as const;
const document = buildOpenApiDocument(servers) as unknown as {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string; description: string }>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }>; schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
};
interface Schema {
  $ref?: string;
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
/** A schema, or the component its `$ref` names, its own `$ref`s resolved the same way. */
const resolved = (schema: Schema | undefined): Schema | undefined => {
  if (schema?.$ref) return resolved(document.components.schemas[schema.$ref.replace("#/components/schemas/", "")]);
  if (!schema) return schema;
  return {
    ...schema,
    ...(schema.items ? { items: resolved(schema.items) } : {}),
    ...(schema.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(schema.properties).map(([name, field]) => [name, resolved(field) as Schema]),
          ),
        }
      : {}),
  };
};
const jsonSchema = (op: Operation, status: string) =>
  resolved(op.responses[status]?.content?.["application/json"]?.schema);
const PET_STATUS = ["available", "pending", "sold"];

describe("OpenAPI document, point by point against the interface spec", () => {
  it("is OpenAPI 3, version 1.0.0, with production and staging servers from configuration", () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe("1.0.0");
    expect(document.servers).toEqual([
      { url: "https://api.petstore.test/v1", description: "production", "x-internal": false },
      { url: "https://staging.petstore.test/v1", description: "staging", "x-internal": false },
    ]);
    for (const server of document.servers) expect(server.url).toMatch(/\/v1$/);
  });

  it("lists exactly the servers configured, in their order: production alone, or a development API itself", () => {
    const only = (list: Parameters<typeof buildOpenApiDocument>[0]) =>
      (buildOpenApiDocument(list).servers ?? []).map(({ url, description }) => ({ url, description }));
    expect(only([{ url: "https://api.petstore.test/v1", description: "production" }])).toEqual([
      { url: "https://api.petstore.test/v1", description: "production" },
    ]);
    expect(only([{ url: "http://localhost:3000/v1", description: "development" }])).toEqual([
      { url: "http://localhost:3000/v1", description: "development" },
    ]);
  });

  it("refuses no server, or a server whose URL does not end in /v1 (paths are relative to it)", () => {
    expect(() => buildOpenApiDocument([])).toThrow("Petstore: no server; a document needs at least one");
    for (const url of ["https://api.petstore.test", "https://api.petstore.test/v1/", "https://api.petstore.test/v2"]) {
      expect(() => buildOpenApiDocument([{ url, description: "production" }]), url).toThrow(
        `Petstore: server ${url} does not end in /v1`,
      );
    }
  });

  // Operations beyond the spec join this document under tags of their own; the spec's tag keeps its three.
  it("has exactly the three operations tagged pets, at the spec's paths and methods", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => (op as { tags?: string[] }).tags?.includes("pets"))
        .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(["GET /pets listPets", "GET /pets/{petId} getPet", "POST /pets createPet"]);
  });

  it('marks every operation beyond the spec: its own tag (pet-changes, categories, store, events), x-stability beta, "Beyond the spec:"', () => {
    const beyond = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => !(op as { tags?: string[] }).tags?.includes("pets"))
        .map(([method, op]) => ({
          at: `${method.toUpperCase()} ${path} ${op.operationId}`,
          op: op as Operation & { tags: string[]; description: string; "x-stability"?: string },
        })),
    );
    expect(beyond.map(({ at }) => at).sort()).toEqual([
      "DELETE /pets/{petId} deletePet",
      "GET /categories listCategories",
      "GET /deleted-pets listDeletedPets",
      "GET /events listEvents",
      "GET /events/stream streamEvents",
      "GET /pets/{petId}/history listPetHistory",
      "GET /store/inventory getInventory",
      "PATCH /pets/{petId} updatePet",
      "POST /categories createCategory",
      "POST /categories/{categoryId}/rename renameCategory",
      "POST /deleted-pets/{petId}/restore restorePet",
    ]);
    const tagOf = (operationId: string | undefined) =>
      operationId === "getInventory"
        ? "store"
        : operationId === "listEvents" || operationId === "streamEvents"
          ? "events"
          : operationId?.endsWith("Category") || operationId === "listCategories"
            ? "categories"
            : "pet-changes";
    for (const { at, op } of beyond) {
      expect(op.tags, at).toEqual([tagOf(op.operationId)]);
      expect(op["x-stability"], at).toBe("beta");
      expect(op.description, at).toMatch(/^Beyond the spec: /);
    }
    // The spec's operations carry no stability label.
    for (const [path, method] of [
      ["/pets", "get"],
      ["/pets", "post"],
      ["/pets/{petId}", "get"],
    ] as const) {
      expect((operation(path, method) as { "x-stability"?: string })["x-stability"]).toBeUndefined();
    }
  });

  it("updatePet takes a JSON Patch as application/json-patch+json and as application/json, the same schema", () => {
    const content = operation("/pets/{petId}", "patch").requestBody?.content ?? {};
    expect(Object.keys(content)).toEqual(["application/json", "application/json-patch+json"]);
    expect(content["application/json-patch+json"]?.schema).toEqual({ $ref: "#/components/schemas/PetPatch" });
    expect(content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/PetPatch" });
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
    const name = op.parameters.find((p) => p.name === "name") as
      (Operation["parameters"][number] & { description?: string }) | undefined;
    expect(name).toMatchObject({ in: "query", schema: { type: "string", minLength: 1, maxLength: 100 } });
    expect(name?.required).not.toBe(true);
    expect(name?.description).toMatch(/^Extension: /);
    const pattern = new RegExp((name?.schema as { pattern: string }).pattern);
    expect(pattern.test("Émile")).toBe(true);
    expect(pattern.test("a\u0000")).toBe(false);
    expect(pattern.test("a\u202eb")).toBe(false);
  });

  it("every name, in both documents, carries the schemas' own name regex as its pattern", () => {
    const access = buildAccessOpenApiDocument(servers);
    const names: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${at}/${index}`));
      if (node === null || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        const field = value as { type?: string; pattern?: string; schema?: { pattern?: string } } | null;
        if (["name", "label", "createdBy"].includes(key) && field?.type === "string")
          names.push(`${at}/${key} ${field.pattern}`);
        if (key === "parameters" && Array.isArray(value)) {
          for (const parameter of value as Array<{ name: string; schema: { pattern?: string } }>) {
            if (parameter.name === "name") names.push(`${at}/parameters/name ${parameter.schema.pattern}`);
          }
        }
        walk(value, `${at}/${key}`);
      }
    };
    walk(document, "/v1");
    walk(access, "/admin/v1");
    // Pet and NewPet, the name query; Session, ApiKey (its name and createdBy), NewApiKey, an event's actor and target, and Webhook's createdBy;
    // StaffMember (name, createdBy), NewStaffMember, Passkey, Invitation, and the passkey bodies (rename, add, accept an invitation);
    // a pet change's author (PetChange.by.name); Category, NewCategory, CategoryRename and an inventory line's name;
    // and the event log's ApiKey in the interface's document (its name and createdBy) and Pet in PetUpdated.
    expect(names).toHaveLength(26);
    for (const name of names) expect(name.endsWith(` ${NAME_PATTERN.source}`), name).toBe(true);
  });

  it("the name pattern, read as a client reads it, agrees with the API on names as sent", () => {
    const body = resolved(operation("/pets", "post").requestBody?.content["application/json"]?.schema);
    const source = (body?.properties?.["name"] as { pattern: string }).pattern;
    for (const flags of ["", "u"]) {
      const pattern = new RegExp(source, flags);
      for (const name of [
        "Rex",
        "  Rex\t",
        "\n🐕 Rex ",
        "שלום",
        "a b",
        "\u00a0Rex",
        "\ud800",
        "Rex\udc00",
        "a\u202eb",
        "\u2066x",
        "a\u0000",
        "a\tb",
        "x\u0085",
      ]) {
        expect(pattern.test(name), `${JSON.stringify(name)} /${flags}`).toBe(
          NewPet.safeParse({ name, categoryId: 1 }).success,
        );
      }
    }
  });

  it("createPet: NewPet body with name and categoryId required, 201 Pet, 400, 401", () => {
    const op = operation("/pets", "post");
    expect(op.requestBody?.required).toBe(true);
    const body = resolved(op.requestBody?.content["application/json"]?.schema);
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

  it("declares 403 exactly on the operations a read key may not call (createPet needs write), as an extension", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const op of Object.values(item)) {
        // The event log is read's, but its key.* events are admin's: asking for them with less is 403.
        const guarded =
          OPERATION_SCOPES[op.operationId as OperationName] !== "read" ||
          ["listEvents", "streamEvents"].includes(op.operationId);
        expect(Object.keys(op.responses).includes("403"), `${path} ${op.operationId}`).toBe(guarded);
      }
    }
    const forbidden = operation("/pets", "post").responses["403"] as {
      description: string;
      content?: Record<string, { example?: { code?: string } }>;
    };
    expect(forbidden.description).toMatch(/^Extension: /);
    expect(forbidden.content?.["application/json"]?.example?.code).toBe("FORBIDDEN");
    expect(jsonSchema(operation("/pets", "post"), "403")?.properties?.["code"]?.enum).toContain("FORBIDDEN");
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
    expect(petId).toMatchObject({
      in: "path",
      required: true,
      schema: { type: "integer", format: "int64", minimum: 1 },
    });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401", "404"]));
    expect(jsonSchema(op, "200")?.required?.sort()).toEqual(["categoryId", "id", "name"]);
    expect(jsonSchema(op, "404")?.properties?.["code"]?.enum).toContain("NOT_FOUND");
  });

  it("describes every error as the Error object", () => {
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const schema = resolved(response.content?.["application/json"]?.schema);
          expect(schema?.required, `${op.operationId} ${status}`).toEqual(["code", "message", "status"]);
          expect(schema?.properties?.["status"]?.type).toBe("integer");
        }
      }
    }
  });
});

/** The named schema of an operation's success answer, read from the contract's route; undefined for no body. */
function successSchemaName(operationId: string, status: string): string | undefined {
  const route = (operationsOf(v1Contract) as Record<string, AppRoute>)[operationId];
  return V1_SCHEMA_NAMES.get((route?.responses as Record<string, unknown> | undefined)?.[status]);
}

describe("OpenAPI document, as good as a hand-written one", () => {
  const raw = document as unknown as {
    info: { contact?: { name?: string }; license?: { name?: string } };
    tags: Array<{ name: string; description?: string }>;
    servers: Array<Record<string, unknown>>;
    components: {
      schemas: Record<string, Schema & { example?: unknown; maxItems?: number }>;
      headers: Record<string, unknown>;
    };
    paths: Record<
      string,
      Record<string, Operation & { tags?: string[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
  };
  const operations = Object.values(raw.paths).flatMap((item) => Object.values(item));
  const walk = (node: unknown, visit: (schema: Record<string, unknown>, at: string) => void, at = "#"): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, visit, `${at}/${index}`));
    if (node === null || typeof node !== "object") return;
    visit(node as Record<string, unknown>, at);
    for (const [key, value] of Object.entries(node)) if (key !== "example") walk(value, visit, `${at}/${key}`);
  };

  it("names the spec's five resources in components.schemas, and every named schema has an example", () => {
    expect(Object.keys(raw.components.schemas)).toEqual(
      expect.arrayContaining(["Error", "NewPet", "Pet", "PetStatus", "Pets"]),
    );
    for (const [name, schema] of Object.entries(raw.components.schemas)) expect(schema.example, name).toBeDefined();
    expect(raw.components.schemas["PetStatus"]?.enum).toEqual(PET_STATUS);
    expect(raw.components.schemas["Pets"]?.items).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(raw.components.schemas["Pet"]?.properties?.["status"]).toEqual({ $ref: "#/components/schemas/PetStatus" });
    expect(raw.components.schemas["NewPet"]?.properties?.["status"]).toEqual({
      $ref: "#/components/schemas/PetStatus",
    });
  });

  it("refers to them from every request body and response instead of inline copies", () => {
    for (const op of operations) {
      const body = op.requestBody?.content["application/json"]?.schema;
      const bodies: Record<string, string> = {
        updatePet: "PetPatch",
        createCategory: "NewCategory",
        renameCategory: "CategoryRename",
      };
      if (body)
        expect(body, op.operationId).toEqual({
          $ref: `#/components/schemas/${bodies[op.operationId ?? ""] ?? "NewPet"}`,
        });
      for (const [status, response] of Object.entries(op.responses)) {
        const expected = Number(status) >= 400 ? "Error" : successSchemaName(op.operationId, status);
        expect(response.content?.["application/json"]?.schema, `${op.operationId} ${status}`).toEqual(
          expected === undefined ? undefined : { $ref: `#/components/schemas/${expected}` },
        );
      }
    }
    // Only components define properties: no operation carries a copy of a schema.
    walk(raw.paths, (schema, at) => expect(schema["properties"], at).toBeUndefined());
  });

  it("describes every response in words, with an example body, and documents the rate-limit headers", () => {
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses) as Array<
        [string, { description: string; headers?: object; content?: Record<string, { example?: unknown }> }]
      >) {
        expect(response.description, `${op.operationId} ${status}`).toMatch(/^[A-Z`].{10,}/);
        // A response the contract declares without a body (c.noBody()) has no example to give.
        if (Number(status) >= 400 || successSchemaName(op.operationId, status) !== undefined) {
          expect(response.content?.["application/json"]?.example, `${op.operationId} ${status}`).toBeDefined();
        }
        expect(Object.keys(response.headers ?? {}), `${op.operationId} ${status}`).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy", ...(status === "429" ? ["Retry-After"] : [])]),
        );
      }
    }
    expect(Object.keys(raw.components.headers)).toEqual(
      expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After"]),
    );
    const getPet = operation("/pets/{petId}", "get");
    expect((getPet.responses["404"] as { description: string }).description).toBe(
      "The requested animal cannot be found.",
    );
  });

  it("bounds every string and array, and gives every integer a format and bounds", () => {
    expect(raw.components.schemas["Pets"]?.maxItems).toBe(100);
    walk(raw, (schema, at) => {
      if (schema["type"] === "string") expect(schema["maxLength"] ?? schema["enum"], at).toBeDefined();
      if (schema["type"] === "array") expect(schema["maxItems"], at).toBeDefined();
      if (schema["type"] === "integer") {
        expect(schema["format"], at).toMatch(/^int(32|64)$/);
        expect(typeof schema["minimum"] === "number" && typeof schema["maximum"] === "number", at).toBe(true);
      }
    });
    expect(raw.components.schemas["Error"]?.properties?.["message"]).toMatchObject({ type: "string", maxLength: 1000 });
    expect(raw.components.schemas["Error"]?.properties?.["status"]).toMatchObject({
      format: "int32",
      minimum: 400,
      maximum: 599,
    });
  });

  it("has tags, contact, license, servers marked public, and extensions marked as such", () => {
    expect(raw.tags[0]?.name).toBe("pets");
    for (const op of operations) {
      expect(op.tags).toHaveLength(1);
      expect(raw.tags.map((tag) => tag.name)).toContain(op.tags?.[0]);
    }
    expect(raw.info.contact?.name).toBeTruthy();
    expect(raw.info.license?.name).toBe("MIT");
    for (const server of raw.servers) expect(server["x-internal"]).toBe(false);
    const parameters = operations.flatMap(
      (op) => op.parameters as Array<{ name: string; description?: string; schema: Schema & { pattern?: string } }>,
    );
    for (const name of ["after", "Idempotency-Key"]) {
      expect(parameters.find((p) => p.name === name)?.description, name).toMatch(/^Extension/);
    }
    for (const name of ["limit", "status", "petId"]) {
      expect(parameters.find((p) => p.name === name)?.description, name).not.toMatch(/Extension/);
    }
    const key = parameters.find((p) => p.name === "Idempotency-Key");
    expect(key?.schema.pattern).toBeDefined();
  });
});
