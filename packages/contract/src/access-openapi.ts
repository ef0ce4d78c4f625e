import { generateOpenApi } from "@ts-rest/open-api";
import { accessContract, ADMIN_API_PATH_PREFIX } from "./access-router.js";
import { AUDIT_ACTIONS, SCOPES } from "./access-schemas.js";
import { INTERFACE_VERSION, markIntegerFormats, type OpenApiServers } from "./openapi.js";
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, MAX_ID } from "./schemas.js";

type OpenApiDocument = ReturnType<typeof generateOpenApi>;
type Operation = { parameters?: Array<{ name: string; in: string; schema?: unknown }>; [key: string]: unknown };

/** Wire schemas of the parameters parsed from strings (see PARAMETER_SCHEMAS in openapi.ts). */
const PARAMETER_SCHEMAS: Record<string, object> = {
  "query:limit": { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
  "query:after": { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
  "query:action": { type: "string", enum: [...AUDIT_ACTIONS] },
  "query:targetType": { type: "string", enum: ["pet", "key"] },
  "query:targetId": { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
  "path:keyId": { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
};

/**
 * The OpenAPI 3 document of the staff-access operations (`/admin/v1`), served
 * beside the interface's own. `servers` are the interface's, with `/v1`
 * replaced by `/admin/v1`.
 */
export function buildAccessOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  const adminUrl = (url: string) => url.replace(/\/v1\/?$/, "") + ADMIN_API_PATH_PREFIX;
  const document = generateOpenApi(
    accessContract,
    {
      info: {
        title: "Petstore staff access",
        version: INTERFACE_VERSION,
        description:
          `Issued API keys with scopes (${SCOPES.join(", ")}), their revocation, and the activity log. ` +
          "Every operation but getSession needs a key of scope admin; a key whose scope does not cover an operation gets 403 FORBIDDEN.",
      },
      servers: [
        { url: adminUrl(servers.production), description: "production" },
        { url: adminUrl(servers.staging), description: "staging" },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "An API key, as `Authorization: Bearer <API_KEY>`." },
        },
      },
    },
    { setOperationId: true },
  );
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    const relative = path.startsWith(`${ADMIN_API_PATH_PREFIX}/`) ? path.slice(ADMIN_API_PATH_PREFIX.length) : path;
    const operations: Record<string, Operation> = {};
    for (const [method, operation] of Object.entries(item)) {
      operations[method] = {
        ...operation,
        security: [{ bearerAuth: [] }],
        parameters: operation.parameters?.map((parameter) => ({
          ...parameter,
          schema: PARAMETER_SCHEMAS[`${parameter.in}:${parameter.name}`] ?? parameter.schema,
        })),
      };
    }
    paths[relative] = operations;
  }
  const result = { ...document, paths, security: [{ bearerAuth: [] }] };
  markIntegerFormats(result);
  return result;
}
