import { describe, expect, it } from "vitest";
import { operationsOf } from "./operations.js";
import { adminContract, ADMIN_API_PATH_PREFIX } from "./root.js";
import { buildAccessOpenApiDocument } from "./access-openapi.js";
import { buildOpenApiDocument } from "./openapi.js";
import {
  OPERATION_CREDENTIALS,
  OPERATION_SCOPES,
  type AnyOperationName,
  type OperationName,
} from "./operation-scopes.js";

const servers = [
  { url: "https://api.petstore.test/v1", description: "production" },
  { url: "https://staging.petstore.test/v1", description: "staging" },
] as const;
interface Operation {
  operationId: string;
  tags?: string[];
  description?: string;
  requestBody?: {
    required?: boolean;
    description?: string;
    content: Record<string, { schema: unknown; example?: unknown }>;
  };
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{
    name: string;
    in: string;
    description?: string;
    example?: unknown;
    schema: Record<string, unknown>;
  }>;
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: unknown; example?: unknown }>;
    }
  >;
}
const document = buildAccessOpenApiDocument(servers) as unknown as {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; headers: Record<string, unknown> };
};

describe("the access OpenAPI document", () => {
  it("has the access contract's operations under /admin/v1, each with bearer security", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    // Each route of the contract, at its path relative to the servers' /admin/v1, `:param` written `{param}`.
    const routes = Object.entries(operationsOf(adminContract)).map(([operation, route]) => {
      expect(route.path.startsWith(`${ADMIN_API_PATH_PREFIX}/`), operation).toBe(true);
      return `${route.method} ${route.path.slice(ADMIN_API_PATH_PREFIX.length).replace(/:(\w+)/g, "{$1}")} ${operation}`;
    });
    expect(operations.sort()).toEqual(routes.sort());
    expect(document.servers.map((server) => server.url)).toEqual([
      "https://api.petstore.test/admin/v1",
      "https://staging.petstore.test/admin/v1",
    ]);
    // Each operation's security is its route's credential: the bearer, the session cookie, or none.
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        const credential = OPERATION_CREDENTIALS[op.operationId as AnyOperationName];
        const expected =
          credential === "cookie" ? [{ sessionCookie: [] }] : credential === "none" ? [] : [{ bearerAuth: [] }];
        expect(op.security, op.operationId).toEqual(expected);
      }
    }
    expect(document.paths["/session/token"]?.["post"]?.security).toEqual([{ sessionCookie: [] }]);
    expect(document.paths["/invitations/lookup"]?.["post"]?.security).toEqual([]);
    expect(
      (document.components as unknown as { securitySchemes: Record<string, unknown> }).securitySchemes["sessionCookie"],
    ).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "__Host-petstore-session",
    });
  });

  it("maps each of the interface's servers, in order, to its /admin/v1 counterpart (only the final /v1 is replaced)", () => {
    const urls = (list: Parameters<typeof buildAccessOpenApiDocument>[0]) =>
      (buildAccessOpenApiDocument(list).servers ?? []).map(({ url, description }) => `${description} ${url}`);
    expect(urls([{ url: "https://example-store.com/api/v1", description: "production" }])).toEqual([
      "production https://example-store.com/api/admin/v1",
    ]);
    expect(urls([{ url: "http://localhost:3000/v1", description: "development" }])).toEqual([
      "development http://localhost:3000/admin/v1",
    ]);
    expect(() =>
      buildAccessOpenApiDocument([{ url: "https://api.petstore.test/v2", description: "production" }]),
    ).toThrow("server https://api.petstore.test/v2 does not end in /v1");
  });

  it("declares 403 on every operation a read key may not call, and plain integer parameters", () => {
    const guarded = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter(
        (op) => op.operationId in OPERATION_SCOPES && OPERATION_SCOPES[op.operationId as OperationName] !== "read",
      );
    expect(guarded.length).toBeGreaterThan(0);
    for (const op of guarded) expect(Object.keys(op.responses), op.operationId).toContain("403");
    const keyId = document.paths["/keys/{keyId}/revoke"]?.["post"]?.parameters?.find((p) => p.name === "keyId");
    expect(keyId?.schema).toMatchObject({ type: "integer", format: "int64", minimum: 1 });
    const limit = document.paths["/audit-events"]?.["get"]?.parameters?.find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
  });

  it("names its schemas, each once, and refers to them: no inline copy of ApiKey, Scope or AuditEvent", () => {
    expect(Object.keys(document.components.schemas).sort()).toEqual(
      [
        "ApiKey",
        "ApiKeys",
        "AuditEvent",
        "AuditEvents",
        "CreatedApiKey",
        "Error",
        "NewApiKey",
        "RecoverWebhook",
        "RecoveredEvents",
        "Scope",
        "Session",
        "Webhook",
        "Webhooks",
        "NewWebhook",
        "WebhookChanges",
        "WebhookWithSecret",
        "Delivery",
        "Deliveries",
        "StaffMember",
        "StaffMembers",
        "NewStaffMember",
        "InvitedStaffMember",
        "StaffRoleChange",
        "Account",
        "Passkey",
        "SessionToken",
        "SignInOptions",
        "InvitationLookup",
        "Invitation",
        "StaffSessionSummary",
        "PasskeyRegistrationOptions",
        "PasskeyAuthenticationOptions",
      ].sort(),
    );
    expect(document.components.schemas["Webhooks"]?.["items"]).toEqual({ $ref: "#/components/schemas/Webhook" });
    expect(document.components.schemas["Deliveries"]?.["items"]).toEqual({ $ref: "#/components/schemas/Delivery" });
    expect(
      (document.components.schemas["WebhookWithSecret"]?.["properties"] as Record<string, unknown>)["webhook"],
    ).toEqual({
      $ref: "#/components/schemas/Webhook",
    });
    const text = JSON.stringify(document);
    expect(document.components.schemas["ApiKeys"]?.["items"]).toEqual({ $ref: "#/components/schemas/ApiKey" });
    expect(document.components.schemas["AuditEvents"]?.["items"]).toEqual({ $ref: "#/components/schemas/AuditEvent" });
    expect((document.components.schemas["CreatedApiKey"]?.["properties"] as Record<string, unknown>)["key"]).toEqual({
      $ref: "#/components/schemas/ApiKey",
    });
    for (const owner of ["Session", "ApiKey", "NewApiKey"]) {
      expect((document.components.schemas[owner]?.["properties"] as Record<string, unknown>)["scope"], owner).toEqual({
        $ref: "#/components/schemas/Scope",
      });
    }
    // Every schema a response or body uses whole is a $ref; the enum of scopes is written once.
    expect(text.split('"enum":["read","write","admin"]').length - 1).toBe(1);
    for (const schema of Object.values(document.components.schemas)) expect(schema["example"]).toBeDefined();
  });

  it("words every operation, parameter, response and body, with an example body; tags each operation", () => {
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        expect(
          op.tags?.every((tag) => tags.has(tag)),
          op.operationId,
        ).toBe(true);
        for (const parameter of op.parameters ?? [])
          expect(parameter.description, `${op.operationId} ${parameter.name}`).toMatch(/\w/);
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${op.operationId} ${status}`).toMatch(/\w/);
          expect(response.description).not.toMatch(/^Extension/);
          const media = response.content?.["application/json"];
          if (media) expect(media.example, `${op.operationId} ${status} example`).toBeDefined();
        }
      }
    }
    expect(document.paths["/keys"]?.["post"]?.requestBody).toMatchObject({ required: true });
    expect(document.paths["/keys/{keyId}/revoke"]?.["post"]?.requestBody).toMatchObject({ required: false });
    expect(document.paths["/audit-events"]?.["get"]?.responses["200"]?.headers).toHaveProperty("Link");
    expect(document.paths["/keys"]?.["get"]?.responses["403"]?.headers).toHaveProperty("WWW-Authenticate");
    expect(Object.keys(document.components.headers)).not.toContain("Sunset");
  });

  it("leaves the interface's document with its own paths and no access path", () => {
    const petstore = buildOpenApiDocument(servers) as unknown as { paths: Record<string, unknown> };
    const admin = buildAccessOpenApiDocument(servers) as unknown as { paths: Record<string, unknown> };
    expect(Object.keys(petstore.paths)).toEqual(expect.arrayContaining(["/pets", "/pets/{petId}"]));
    for (const path of Object.keys(admin.paths)) expect(Object.keys(petstore.paths)).not.toContain(path);
  });
});
