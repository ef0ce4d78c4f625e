import { generateOpenApi } from "@ts-rest/open-api";
import { headerDisplayName, petstoreContract } from "./router.js";
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, MAX_ID, PET_STATUSES } from "./schemas.js";

export const INTERFACE_VERSION = "1.0.0";

export interface OpenApiServers {
  /** Base URL of the production deployment, ending in `/v1`. */
  production: string;
  /** Base URL of the staging deployment, ending in `/v1`. */
  staging: string;
}

type OpenApiDocument = ReturnType<typeof generateOpenApi>;
type Operation = { parameters?: Array<{ name: string; in: string; schema?: unknown }>; [key: string]: unknown };

/**
 * Query and path values are parsed from strings (a union of number and digit
 * string, piped into the bounds), which the zod-to-OpenAPI converter renders as
 * an opaque `oneOf`. The wire format is a plain bounded integer: say so.
 */
const PARAMETER_SCHEMAS: Record<string, object> = {
  "query:limit": { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
  "query:status": { type: "string", enum: [...PET_STATUSES] },
  "query:after": { type: "integer", format: "int64", minimum: 0, maximum: MAX_ID },
  "path:petId": { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
};

/**
 * The OpenAPI 3 document of the interface, generated from the contract.
 * `servers` come from configuration: the contract knows no hosts.
 */
export function buildOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  const document = generateOpenApi(
    petstoreContract,
    {
      info: {
        title: "Petstore",
        version: INTERFACE_VERSION,
        description: "List, add and read the animals kept in a store.",
      },
      servers: [
        { url: servers.production, description: "production" },
        { url: servers.staging, description: "staging" },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "The API key, as `Authorization: Bearer <API_KEY>`." },
        },
      },
    },
    { setOperationId: true },
  );

  // generateOpenApi adds no security; every operation of the interface needs the key.
  // Paths are written relative to the server URL, which already ends in /v1.
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    const relative = path.startsWith("/v1/") ? path.slice("/v1".length) : path;
    const operations: Record<string, Operation> = {};
    for (const [method, operation] of Object.entries(item)) {
      operations[method] = {
        ...operation,
        // A request body in this interface is always required (spec: createPet).
        ...(operation["requestBody"] ? { requestBody: { ...(operation["requestBody"] as object), required: true } } : {}),
        security: [{ bearerAuth: [] }],
        parameters: operation.parameters?.map((parameter) => ({
          ...parameter,
          // ts-rest keys headers lower-case, as Node delivers them; documents spell them as the RFCs do.
          ...(parameter.in === "header" ? { name: headerDisplayName(parameter.name) } : {}),
          schema: PARAMETER_SCHEMAS[`${parameter.in}:${parameter.name}`] ?? parameter.schema,
        })),
      };
    }
    paths[relative] = operations;
  }
  const result = { ...document, paths, security: [{ bearerAuth: [] }] };
  markInt64(result);
  return result;
}

/** Every integer bounded by MAX_ID is an int64 identifier (spec: `id`, `categoryId`; the access document's ids too). */
export function markInt64(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(markInt64);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (schema["type"] === "integer" && schema["maximum"] === MAX_ID) schema["format"] = "int64";
  Object.values(schema).forEach(markInt64);
}
