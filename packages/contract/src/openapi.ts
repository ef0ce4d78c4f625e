import type { AppRoute } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { headerDisplayName, petstoreContract } from "./router.js";
import {
  ErrorBody,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  MAX_ID,
  NAME_MAX_LENGTH,
  NewPet,
  Pet,
  PET_STATUSES,
  Pets,
  PetStatus,
} from "./schemas.js";

export const INTERFACE_VERSION = "1.0.0";

export interface OpenApiServers {
  /** Base URL of the production deployment, ending in `/v1`. */
  production: string;
  /** Base URL of the staging deployment, ending in `/v1`. */
  staging: string;
}

type OpenApiDocument = ReturnType<typeof generateOpenApi>;
type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: unknown;
}
interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Schema; example?: unknown }>;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { description?: string; required?: boolean; content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, Response>;
  [key: string]: unknown;
}

/** The spec's five resources, found by the contract's own zod schema wherever a route uses it. */
const SCHEMA_NAMES = new Map<unknown, string>([
  [PetStatus, "PetStatus"],
  [NewPet, "NewPet"],
  [Pet, "Pet"],
  [Pets, "Pets"],
  [ErrorBody, "Error"],
]);
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const EXAMPLE_PET = { id: 42, name: "Rex", categoryId: 1, status: "available" };
/** One example of each named schema; each field's example is taken from its schema's. */
const SCHEMA_EXAMPLES: Record<string, unknown> = {
  PetStatus: "available",
  NewPet: { name: "Rex", categoryId: 1, status: "available" },
  Pet: EXAMPLE_PET,
  Pets: [EXAMPLE_PET, { id: 43, name: "Tom", categoryId: 2 }],
  Error: {
    code: "VALIDATION_ERROR",
    message: "Invalid request: body.name: name must not be empty.",
    status: 400,
    issues: [{ field: "body.name", message: "name must not be empty" }],
  },
};

/**
 * Query and path values are parsed from strings (a union of number and digit
 * string, piped into the bounds), which the zod-to-OpenAPI converter renders as
 * an opaque `oneOf`. The wire format is a plain bounded integer: say so.
 */
const PARAMETERS: Record<string, { description: string; schema?: object; example?: unknown }> = {
  "query:limit": {
    description: "Maximum number of animals to return.",
    schema: { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
    example: LIMIT_DEFAULT,
  },
  "query:status": {
    description: "Return only animals with this status.",
    schema: { type: "string", enum: [...PET_STATUSES] },
    example: "available",
  },
  "query:after": {
    description:
      "Extension (not in the interface spec): continue a listing after this id; the `Link` header of a page that has more carries it.",
    schema: { type: "integer", format: "int64", minimum: 0, maximum: MAX_ID },
    example: 42,
  },
  "query:name": {
    description:
      "Extension: only animals whose name starts with this, ignoring case and accents " +
      "(`emi` finds `Émile`). Trimmed; 1..100 characters; no control characters. Combines with `status`, `limit` and " +
      "`after`; the `Link` of the next page keeps it.",
    schema: { type: "string", minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: "^[^\\u0000-\\u001f\\u007f-\\u009f]*$" },
    example: "Rex",
  },
  "path:petId": {
    description: "The identifier of the animal.",
    schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
    example: 42,
  },
  "header:Idempotency-Key": {
    description:
      "Extension (not in the interface spec): makes the create safe to retry (IETF httpapi Idempotency-Key draft). " +
      "1..255 printable ASCII characters, e.g. a UUID; scoped to the API key.",
    example: "5f0c2f4e-1b7a-4bb2-9d0e-0a6f1c9d3e21",
  },
};

const errorExample = (status: number, code: string, message: string) => ({ code, message, status });

/**
 * Every response in words: the spec's Errors table and operation texts, then the
 * transport's own answers (marked as extensions), each with an example body.
 */
const ERROR_RESPONSES: Record<string, { description: string; example: object }> = {
  "400": {
    description: "The request is missing required fields or contains invalid values; `issues` names each field at fault.",
    example: SCHEMA_EXAMPLES["Error"] as object,
  },
  "401": {
    description: "API key missing or invalid.",
    example: errorExample(401, "UNAUTHORIZED", "The API key is not valid."),
  },
  "404": {
    description: "The requested animal cannot be found.",
    example: errorExample(404, "NOT_FOUND", "No pet has id 42."),
  },
  "409": {
    description:
      "Extension: a request with this `Idempotency-Key` is still being processed; retry after `Retry-After` seconds.",
    example: errorExample(409, "IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry after 1 second."),
  },
  "413": {
    description: "Extension: the request body is larger than 16 KiB.",
    example: errorExample(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16 KiB."),
  },
  "415": {
    description: "Extension: the request body is not UTF-8 JSON sent as `application/json`.",
    example: errorExample(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON, sent with Content-Type: application/json."),
  },
  "422": {
    description: "Extension: this `Idempotency-Key` was already used with another body.",
    example: errorExample(
      422,
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with another body; send a new key for a new pet.",
    ),
  },
  "429": {
    description:
      "Extension: too many requests for this API key in the current minute, or too many missing or invalid keys from this address; " +
      "retry after `Retry-After` seconds.",
    example: errorExample(429, "RATE_LIMITED", "Too many requests for this API key; retry after 12 seconds."),
  },
  "500": {
    description: "Extension: an unexpected fault of the service; quote the request id when reporting it.",
    example: errorExample(500, "INTERNAL", "An unexpected error occurred; quote request id 3f9d2c1e when reporting it."),
  },
  "503": {
    description: "Extension: the database is unavailable or busy right now; retry after `Retry-After` seconds.",
    example: errorExample(503, "UNAVAILABLE", "The database is unavailable right now; retry after 2 seconds."),
  },
};

/** The spec's words for each operation's own answers. */
const OPERATION_RESPONSES: Record<string, Record<string, { description: string; example?: unknown }>> = {
  listPets: {
    "200": {
      description:
        "A page of animals in ascending id order, at most `limit` of them; with `status`, only animals with that status.",
    },
    "400": {
      description: "Extension: a query parameter has an invalid value (e.g. `limit` outside 1..100).",
      example: {
        code: "VALIDATION_ERROR",
        message: "Invalid request: query.limit: limit must be at most 100.",
        status: 400,
        issues: [{ field: "query.limit", message: "limit must be at most 100" }],
      },
    },
  },
  createPet: {
    "201": { description: "The created animal, including the assigned `id`." },
    "400": { description: "The request body is missing required fields or contains invalid values." },
  },
  getPet: {
    "200": { description: "The requested animal." },
    "400": {
      description: "Extension: `petId` is not a positive decimal integer.",
      example: {
        code: "VALIDATION_ERROR",
        message: "Invalid request: path.petId: petId must be a decimal integer.",
        status: 400,
        issues: [{ field: "path.petId", message: "petId must be a decimal integer" }],
      },
    },
  },
};

/** The words for each operation's request body. */
const REQUEST_BODIES: Record<string, string> = {
  createPet: "The animal to add. `name` and `categoryId` are required.",
};

/** On every response. */
const COMMON_HEADERS = {
  RateLimit: headerRef("RateLimit"),
  "RateLimit-Policy": headerRef("RateLimit-Policy"),
  "Access-Control-Allow-Origin": headerRef("Access-Control-Allow-Origin"),
};

/** Response headers beyond the rate limits, by operation and status. */
const OPERATION_HEADERS: Record<string, Record<string, Record<string, unknown>>> = {
  listPets: { "200": { Link: headerRef("Link") } },
  createPet: {
    "201": { Location: headerRef("Location"), "Idempotent-Replayed": headerRef("Idempotent-Replayed") },
    "409": { "Retry-After": headerRef("Retry-After") },
  },
  getPet: {
    "200": { Deprecation: headerRef("Deprecation"), Sunset: headerRef("Sunset") },
  },
};
const STATUS_HEADERS: Record<string, Record<string, unknown>> = {
  "429": { "Retry-After": headerRef("Retry-After") },
  "503": { "Retry-After": headerRef("Retry-After") },
};

const HEADERS = {
  RateLimit: {
    description:
      "Extension (IETF httpapi RateLimit header fields draft): the quota left in the current window and the seconds until it " +
      'is restored, for the policy that counted this request: `"per-key"` (requests per API key per minute) on every response ' +
      'to a valid key, `"auth-failures"` (missing or invalid keys per client address per minute) on a 401 or its 429. ' +
      "Absent when that limit is off.",
    schema: { type: "string", maxLength: 100, pattern: '^"[a-z-]+";r=[0-9]+;t=[0-9]+$' },
    example: '"per-key";r=1187;t=42',
  },
  "RateLimit-Policy": {
    description:
      "Extension (IETF httpapi RateLimit header fields draft): the policy that counted this request: its quota `q` per " +
      "window of `w` seconds.",
    schema: { type: "string", maxLength: 100, pattern: '^"[a-z-]+";q=[0-9]+;w=[0-9]+$' },
    example: '"per-key";q=1200;w=60',
  },
  "Retry-After": {
    description: "Seconds to wait before sending the request again.",
    schema: { type: "integer", format: "int32", minimum: 1, maximum: 86400 },
    example: 12,
  },
  Link: {
    description: 'Extension: `<...>; rel="next"`, the next page of this listing, when there is one.',
    schema: { type: "string", maxLength: 2048, pattern: '^<[^>]+>; rel="next"$' },
    example: '</v1/pets?limit=20&after=42>; rel="next"',
  },
  "Access-Control-Allow-Origin": {
    description:
      "The calling page's origin, on a browser request from an origin the deployment allows (CORS); absent otherwise.",
    schema: { type: "string", format: "uri", maxLength: 2048 },
    example: "https://admin.petstore.example",
  },
  Location: {
    description: "The path of the created animal.",
    schema: { type: "string", format: "uri-reference", maxLength: 2048 },
    example: "/v1/pets/42",
  },
  "Idempotent-Replayed": {
    description: "Extension: `true` when this is the saved answer to an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  Deprecation: {
    description: "When this operation was deprecated (RFC 9745), as `@` and seconds since the epoch.",
    schema: { type: "string", maxLength: 32, pattern: "^@[0-9]+$" },
    example: "@1767225600",
  },
  Sunset: {
    description: "When this operation goes away (RFC 8594).",
    schema: { type: "string", maxLength: 29, pattern: "^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$" },
    example: "Thu, 05 Dec 2030 00:00:00 GMT",
  },
};


/**
 * The OpenAPI 3 document of the interface, generated from the contract.
 * `servers` come from configuration: the contract knows no hosts.
 */
export function buildOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  const schemas: Record<string, Schema> = {};
  /** The schema a route uses as a `$ref` when the contract names it; the generated copy becomes the component. */
  const named = (zodSchema: unknown, generated: Schema | undefined): Schema | undefined => {
    const name = SCHEMA_NAMES.get(zodSchema);
    if (!name || !generated) return generated;
    schemas[name] ??= generated;
    return schemaRef(name);
  };

  const document = generateOpenApi(
    petstoreContract,
    {
      info: {
        title: "Petstore",
        version: INTERFACE_VERSION,
        description: "List, add and read the animals kept in a store.",
        contact: { name: "Petstore API team", url: "https://github.com/petstore/petstore/issues" },
        license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      },
      servers: [
        { url: servers.production, description: "production", "x-internal": false },
        { url: servers.staging, description: "staging", "x-internal": false },
      ],
      tags: [{ name: "pets", description: "The animals kept in the store." }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "The API key, as `Authorization: Bearer <API_KEY>`." },
        },
        headers: HEADERS,
      },
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => describeOperation(operation as unknown as Operation, route, named) as never,
    },
  );

  // Paths are written relative to the server URL, which already ends in /v1.
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    paths[path.startsWith("/v1/") ? path.slice("/v1".length) : path] = item;
  }
  const result = {
    ...document,
    paths,
    components: { ...document.components, schemas: namedSchemas(schemas) },
    // generateOpenApi adds no security; every operation of the interface needs the key.
    security: [{ bearerAuth: [] }],
  };
  markIntegerFormats(result);
  return result;
}

function describeOperation(
  operation: Operation,
  route: AppRoute,
  named: (zodSchema: unknown, generated: Schema | undefined) => Schema | undefined,
): Operation {
  const operationId = operation.operationId ?? "";
  const responses: Record<string, Response> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const words = OPERATION_RESPONSES[operationId]?.[status] ?? ERROR_RESPONSES[status];
    if (!words) throw new Error(`${operationId} ${status}: no description; add one to openapi.ts`);
    const media = response.content?.["application/json"];
    const zodSchema = (route.responses as Record<string, unknown>)[status];
    const schema = named(zodSchema, media?.schema);
    const example = words.example ?? ERROR_RESPONSES[status]?.example ?? exampleOf(zodSchema);
    responses[status] = {
      description: words.description,
      headers: { ...COMMON_HEADERS, ...STATUS_HEADERS[status], ...OPERATION_HEADERS[operationId]?.[status] },
      ...(schema ? { content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } } } : {}),
    };
  }
  const bodyMedia = operation.requestBody?.content["application/json"];
  const zodBody = "body" in route ? route.body : undefined;
  const body = bodyMedia ? named(zodBody, bodyMedia.schema) : undefined;
  const bodyDescription = REQUEST_BODIES[operationId];
  if (body && !bodyDescription) throw new Error(`${operationId} request body: no description; add one to openapi.ts`);
  return {
    ...operation,
    tags: ["pets"],
    // A request body in this interface is always required (spec: createPet).
    ...(body
      ? {
          requestBody: {
            description: bodyDescription,
            required: true,
            content: { "application/json": { schema: body, example: exampleOf(zodBody) } },
          },
        }
      : {}),
    security: [{ bearerAuth: [] }],
    parameters: operation.parameters?.map((parameter) => {
      // ts-rest keys headers lower-case, as Node delivers them; documents spell them as the RFCs do.
      const name = parameter.in === "header" ? headerDisplayName(parameter.name) : parameter.name;
      const documented = PARAMETERS[`${parameter.in}:${name}`];
      if (!documented) throw new Error(`${operationId} ${parameter.in} ${name}: no description; add one to openapi.ts`);
      return {
        ...parameter,
        name,
        description: documented.description,
        schema: documented.schema ?? parameter.schema,
        ...(documented.example === undefined ? {} : { example: documented.example }),
      };
    }),
    responses,
  };
}

const exampleOf = (zodSchema: unknown): unknown => {
  const name = SCHEMA_NAMES.get(zodSchema);
  return name === undefined ? undefined : SCHEMA_EXAMPLES[name];
};

/**
 * The components, each as generated from its zod schema, with the named schemas
 * they hold referred to by name: `Pets` holds `Pet`, `NewPet` and `Pet` hold `PetStatus`.
 * Each field carries the example of its schema's example.
 */
function namedSchemas(captured: Record<string, Schema>): Record<string, Schema> {
  const pet = captured["Pet"];
  const newPet = captured["NewPet"];
  if (!pet || !newPet || !captured["Pets"] || !captured["Error"]) throw new Error("a named schema is used by no route");
  const petStatus = (pet["properties"] as Record<string, Schema>)["status"] as Schema;
  const schemas: Record<string, Schema> = {
    PetStatus: petStatus,
    NewPet: referring(newPet, { status: petStatus }),
    Pet: referring(pet, { status: petStatus }),
    Pets: { ...captured["Pets"], items: replaced(captured["Pets"]["items"], pet, "Pet") },
    Error: captured["Error"],
  };
  for (const [name, schema] of Object.entries(schemas)) {
    const example = SCHEMA_EXAMPLES[name];
    schemas[name] = { ...schema, example };
    const properties = schema["properties"] as Record<string, Schema> | undefined;
    if (!properties || typeof example !== "object" || example === null) continue;
    for (const [field, property] of Object.entries(properties)) {
      const value = (example as Record<string, unknown>)[field];
      if (value !== undefined && !("$ref" in property)) properties[field] = { ...property, example: value };
    }
  }
  return schemas;
}

/** `schema` with each of `fields` (a copy of a named schema) replaced by its `$ref`. */
function referring(schema: Schema, fields: Record<string, Schema>): Schema {
  const properties = { ...(schema["properties"] as Record<string, Schema>) };
  for (const [field, target] of Object.entries(fields)) properties[field] = replaced(properties[field], target, "PetStatus");
  return { ...schema, properties };
}

/** The `$ref` to `name`, after checking that `inline` is the very schema it names. */
function replaced(inline: unknown, target: Schema, name: string): Schema {
  if (JSON.stringify(inline) !== JSON.stringify(target)) throw new Error(`an inline copy of ${name} differs from ${name}`);
  return schemaRef(name);
}

/**
 * Every integer bounded by MAX_ID is an int64 identifier (spec: `id`, `categoryId`);
 * every other integer of the interface (`limit`, `Error.status`) fits an int32.
 */
export function markIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(markIntegerFormats);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (schema["type"] === "integer") schema["format"] = schema["maximum"] === MAX_ID ? "int64" : (schema["format"] ?? "int32");
  Object.values(schema).forEach(markIntegerFormats);
}
