import { isAppRouteOtherResponse, type AppRoute, type AppRouter } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { headerDisplayName } from "./petstore-contract.js";
import { operationsOf, type Operations } from "./operations.js";
import type { Credential, RouteMetadata } from "./route-metadata.js";
import { SESSION_COOKIE_NAME } from "./staff-schemas.js";
import { MAX_ID } from "./schemas.js";

/**
 * The machinery both served documents share (`/v1/openapi.json` and
 * `/admin/v1/openapi.json`): ts-rest generates each from its contract, and a
 * document's own words (`DocumentWords`) name its schemas, describe every
 * parameter and response with an example, and list the headers it answers with.
 * Each operation's tag is its route's own (`metadata.tag`). A parameter,
 * response or body without words, or a route without a tag the document lists,
 * stops the build.
 */

export type OpenApiDocument = ReturnType<typeof generateOpenApi>;
export type Schema = Record<string, unknown>;

/** One server of the interface: a deployment's base URL, ending in `/v1`, and which deployment it is. */
export interface OpenApiServer {
  url: string;
  description: "production" | "staging" | "development";
}

/**
 * The servers a document lists, in order: from configuration, never hard-coded (the contract knows no
 * hosts). A production API lists production, then staging when it has one; a development API, itself.
 */
export type OpenApiServers = readonly OpenApiServer[];

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
  requestBody?: {
    description?: string;
    required?: boolean;
    content: Record<string, { schema: Schema; example?: unknown }>;
  };
  responses: Record<string, Response>;
  [key: string]: unknown;
}

export interface ParameterWords {
  description: string;
  /** The wire schema, where the generated one is not it (values parsed from strings). */
  schema?: object;
  example?: unknown;
}
export interface ResponseWords {
  description: string;
  example?: unknown;
  /** A response that is not JSON (`c.otherResponse`, such as `text/event-stream`): the schema of its body, as the document gives it. */
  mediaSchema?: object;
}
export type HeaderDefinition = { description: string; schema: object; example?: unknown };

export interface DocumentWords {
  /** The named components, found by the contract's own zod schema wherever a route uses one whole. */
  schemaNames: Map<unknown, string>;
  /**
   * Named components no route uses whole, each taken from a component that
   * holds it (e.g. `PetStatus` from `Pet.status`); in document order among `schemaNames`.
   */
  nestedSchemas?: Array<{ name: string; after: string; from: (components: Record<string, Schema>) => unknown }>;
  /** One example of each named schema; each field's example is taken from its schema's. */
  schemaExamples: Record<string, unknown>;
  /** By `in:name` (headers spelt as the RFCs do). */
  parameters: Record<string, ParameterWords>;
  /** Every operation's answer of this status, unless `operationResponses` words it. */
  statusResponses: Record<string, ResponseWords>;
  operationResponses: Record<string, Record<string, ResponseWords>>;
  /** Required unless the words say otherwise. */
  requestBodies: Record<string, { description: string; required?: false }>;
  /** The headers this document's answers may carry, as components; only those referred to are kept. */
  headers: Record<string, HeaderDefinition>;
  /** On every response. */
  commonHeaders: string[];
  /** By status, on every operation's answer of that status. */
  statusHeaders: Record<string, string[]>;
  /** By operation and status. */
  operationHeaders: Record<string, Record<string, string[]>>;
}

export interface DocumentOptions {
  info: Record<string, unknown> & { title: string; version: string };
  /** At least one; each URL ends in `pathPrefix`, with no trailing slash. */
  servers: ReadonlyArray<{ url: string; description: string }>;
  /** Each route's `metadata.tag` must be one of them. */
  tags: Array<{ name: string; description: string }>;
  /** The contract's path prefix: paths are written relative to the servers, whose URLs end in it. */
  pathPrefix: string;
  securityDescription: string;
  words: DocumentWords;
}

export const CONTACT = { name: "Petstore API team", url: "https://github.com/petstore/petstore/issues" };
export const LICENSE = { name: "MIT", url: "https://opensource.org/licenses/MIT" };

export const errorExample = (status: number, code: string, message: string) => ({ code, message, status });

/** The transport's own answers, the same on every operation of both documents; `mark` prefixes each description. */
export function transportResponses(mark: "Extension: " | ""): Record<string, ResponseWords> {
  // Worded to follow "Extension: "; without the mark, a sentence of its own.
  const words: Record<string, ResponseWords> = {
    "413": {
      description: "the request body is larger than 16 KiB.",
      example: errorExample(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16 KiB."),
    },
    "415": {
      description: "the request body is not UTF-8 JSON sent as `application/json`.",
      example: errorExample(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "The request body must be JSON, sent with Content-Type: application/json.",
      ),
    },
    "429": {
      description:
        "too many requests for this API key in the current minute, or too many missing or invalid keys (or passkey sign-ins started) from this address; " +
        "retry after `Retry-After` seconds.",
      example: errorExample(429, "RATE_LIMITED", "Too many requests for this API key; retry after 12 seconds."),
    },
    "500": {
      description: "an unexpected fault of the service; quote the request id when reporting it.",
      example: errorExample(
        500,
        "INTERNAL",
        "An unexpected error occurred; quote request id 3f9d2c1e when reporting it.",
      ),
    },
    "503": {
      description: "the database is unavailable or busy right now; retry after `Retry-After` seconds.",
      example: errorExample(503, "UNAVAILABLE", "The database is unavailable right now; retry after 2 seconds."),
    },
  };
  const sentence = (text: string) => (mark ? mark + text : text.charAt(0).toUpperCase() + text.slice(1));
  return Object.fromEntries(
    Object.entries(words).map(([status, { description, example }]) => [
      status,
      { description: sentence(description), example },
    ]),
  );
}

/** The transport's headers: the rate limits and CORS on every answer, `Retry-After` on a 429 or 503. */
export const TRANSPORT_HEADERS: Record<string, HeaderDefinition> = {
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
  "Access-Control-Allow-Origin": {
    description:
      "The calling page's origin, on a browser request from an origin the deployment allows (CORS); absent otherwise.",
    schema: { type: "string", format: "uri", maxLength: 2048 },
    example: "https://admin.petstore.example",
  },
};
export const TRANSPORT_COMMON_HEADERS = ["RateLimit", "RateLimit-Policy", "Access-Control-Allow-Origin"];
export const TRANSPORT_STATUS_HEADERS: Record<string, string[]> = { "429": ["Retry-After"], "503": ["Retry-After"] };

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A contract's operations, each declaring its tag (and scope) in its metadata; the compiler refuses one that does not. */
export type DescribedContract = Record<string, AppRoute & { metadata: RouteMetadata }>;

/**
 * The OpenAPI 3 document of `contract` (its features nested contracts), described by `words`; each operation is
 * tagged with its route's `metadata.tag` and its operationId is the route's key.
 */
export function buildContractDocument<T extends AppRouter>(
  contract: T & (Operations<T> extends DescribedContract ? unknown : never),
  { info, servers, tags, pathPrefix, securityDescription, words }: DocumentOptions,
): OpenApiDocument {
  // Paths are relative to the servers: a server elsewhere would send every "Try it out" to a wrong path.
  if (servers.length === 0) throw new Error(`${info.title}: no server; a document needs at least one`);
  for (const server of servers) {
    if (!server.url.endsWith(pathPrefix))
      throw new Error(`${info.title}: server ${server.url} does not end in ${pathPrefix}`);
  }
  const captured: Record<string, Schema> = {};
  /** The schema a route uses, as a `$ref` when the contract names it; the generated copy becomes the component. */
  const named = (zodSchema: unknown, generated: Schema | undefined): Schema | undefined => {
    const name = words.schemaNames.get(zodSchema);
    if (!name || !generated) return generated;
    captured[name] ??= generated;
    return schemaRef(name);
  };
  const usedHeaders = new Set<string>();
  const tagNames = new Set(tags.map((tag) => tag.name));

  const document = generateOpenApi(
    contract,
    {
      info,
      servers: servers.map((server) => ({ ...server, "x-internal": false })),
      tags,
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: securityDescription },
          // Only a document with a route that takes the session cookie describes it (the interface's does not).
          ...(Object.values(operationsOf<AppRouter>(contract) as DescribedContract).some(
            (route) => (route.metadata as Partial<RouteMetadata> | undefined)?.credential === "cookie",
          )
            ? {
                sessionCookie: {
                  type: "apiKey",
                  in: "cookie",
                  name: SESSION_COOKIE_NAME,
                  description:
                    "The browser session cookie (HttpOnly, Secure, SameSite=Strict), set at sign-in; the request must also carry an `Origin` header equal to the admin app's origin.",
                },
              }
            : {}),
        },
      },
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) =>
        describeOperation(operation as unknown as Operation, route, words, tagNames, named, usedHeaders) as never,
    },
  );

  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    paths[path.startsWith(`${pathPrefix}/`) ? path.slice(pathPrefix.length) : path] = item;
  }
  const headers = Object.fromEntries(Object.entries(words.headers).filter(([name]) => usedHeaders.has(name)));
  const result = {
    ...document,
    paths,
    components: { ...document.components, headers, schemas: namedSchemas(captured, words) },
    // generateOpenApi adds no security; every operation needs a key.
    security: [{ bearerAuth: [] }],
  };
  markIntegerFormats(result);
  dropUntypedNullable(result);
  return result;
}

/**
 * OpenAPI 3.0 takes `nullable` only beside a `type`: the converter also marks a union whose branch is
 * nullable (`oneOf: [string nullable, number]`), which validators refuse. The branch says it already.
 */
function dropUntypedNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropUntypedNullable);
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (schema["nullable"] === true && schema["type"] === undefined && Array.isArray(schema["oneOf"]))
    delete schema["nullable"];
  for (const value of Object.values(schema)) dropUntypedNullable(value);
}

function describeOperation(
  operation: Operation,
  route: AppRoute,
  words: DocumentWords,
  tagNames: ReadonlySet<string>,
  named: (zodSchema: unknown, generated: Schema | undefined) => Schema | undefined,
  usedHeaders: Set<string>,
): Operation {
  const operationId = operation.operationId ?? "";
  const refs = (names: string[] | undefined) =>
    Object.fromEntries(
      (names ?? []).map((name) => {
        if (!words.headers[name]) throw new Error(`${operationId}: header ${name} has no definition`);
        usedHeaders.add(name);
        return [name, headerRef(name)];
      }),
    );
  const responses: Record<string, Response> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const own = words.operationResponses[operationId]?.[status] ?? words.statusResponses[status];
    if (!own) throw new Error(`${operationId} ${status}: no description; add one to the document's words`);
    const media = response.content?.["application/json"];
    const zodSchema = (route.responses as Record<string, unknown>)[status];
    if (isAppRouteOtherResponse(zodSchema as never)) {
      const { contentType } = zodSchema as { contentType: string };
      if (!own.mediaSchema)
        throw new Error(
          `${operationId} ${status}: a ${contentType} answer needs its mediaSchema in the document's words`,
        );
      responses[status] = {
        description: own.description,
        headers: {
          ...refs(words.commonHeaders),
          ...refs(words.statusHeaders[status]),
          ...refs(words.operationHeaders[operationId]?.[status]),
        },
        content: {
          [contentType]: { schema: own.mediaSchema, ...(own.example === undefined ? {} : { example: own.example }) },
        },
      } as Response;
      continue;
    }
    const schema = named(zodSchema, media?.schema);
    const example = own.example ?? words.statusResponses[status]?.example ?? exampleOf(zodSchema, words);
    responses[status] = {
      description: own.description,
      headers: {
        ...refs(words.commonHeaders),
        ...refs(words.statusHeaders[status]),
        ...refs(words.operationHeaders[operationId]?.[status]),
      },
      ...(schema ? { content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } } } : {}),
    };
  }
  const bodyMedia = operation.requestBody?.content["application/json"];
  const zodBody = "body" in route ? route.body : undefined;
  const body = bodyMedia ? named(zodBody, bodyMedia.schema) : undefined;
  const bodyWords = words.requestBodies[operationId];
  if (body && !bodyWords)
    throw new Error(`${operationId} request body: no description; add one to the document's words`);
  const metadata = route.metadata as Partial<RouteMetadata> | undefined;
  const tag = metadata?.tag;
  if (!tag) throw new Error(`${operationId}: no tag; add metadata.tag to its route`);
  if (!tagNames.has(tag)) throw new Error(`${operationId}: its tag ${tag} is not one of the document's tags`);
  // An operation beyond the spec says so where a reader of the document meets it first.
  if (metadata?.stability && !route.description?.startsWith("Beyond the spec:")) {
    throw new Error(
      `${operationId}: x-stability ${metadata.stability}, but its description does not start "Beyond the spec:"`,
    );
  }
  const bodyContent = body ? { schema: body, ...exampleField(exampleOf(zodBody, words)) } : undefined;
  return {
    ...operation,
    tags: [tag],
    ...(metadata?.stability ? { "x-stability": metadata.stability } : {}),
    ...(bodyContent
      ? {
          requestBody: {
            description: bodyWords?.description,
            required: bodyWords?.required ?? true,
            content: Object.fromEntries(
              ["application/json", ...(metadata?.alsoAccepts ?? [])].map((type) => [type, bodyContent]),
            ),
          },
        }
      : {}),
    security: securityOf((route.metadata as RouteMetadata).credential ?? "bearer"),
    parameters: operation.parameters?.map((parameter) => {
      // ts-rest keys headers lower-case, as Node delivers them; documents spell them as the RFCs do.
      const name = parameter.in === "header" ? headerDisplayName(parameter.name) : parameter.name;
      // An operation's own words first (`listKeys query:limit`), where a name means something else there.
      const documented =
        words.parameters[`${operationId} ${parameter.in}:${name}`] ?? words.parameters[`${parameter.in}:${name}`];
      if (!documented)
        throw new Error(`${operationId} ${parameter.in} ${name}: no description; add one to the document's words`);
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

/**
 * An operation's security, from its route's credential: a bearer (key or token), the session cookie, or
 * none (`[]`: the route carries its own one-time secret, such as an invitation token or a WebAuthn challenge).
 */
function securityOf(credential: Credential): Array<Record<string, string[]>> {
  if (credential === "cookie") return [{ sessionCookie: [] }];
  if (credential === "none") return [];
  return [{ bearerAuth: [] }];
}

const exampleField = (example: unknown) => (example === undefined ? {} : { example });

const exampleOf = (zodSchema: unknown, words: DocumentWords): unknown => {
  const name = words.schemaNames.get(zodSchema);
  return name === undefined ? undefined : words.schemaExamples[name];
};

/**
 * The components, each as generated from its zod schema, with every inline
 * copy of another named schema replaced by its `$ref` (`Pets` holds `Pet`,
 * which holds `PetStatus`); each field carries the example of its schema's example.
 */
function namedSchemas(captured: Record<string, Schema>, words: DocumentWords): Record<string, Schema> {
  const all: Record<string, Schema> = {};
  const add = (name: string, schema: Schema | undefined) => {
    if (!schema) throw new Error(`the named schema ${name} is used by no route`);
    all[name] = schema;
    for (const nested of words.nestedSchemas ?? [])
      if (nested.after === name) add(nested.name, nested.from(all) as Schema | undefined);
  };
  const nestedNames = new Set((words.nestedSchemas ?? []).map((nested) => nested.name));
  for (const name of new Set(words.schemaNames.values())) if (!nestedNames.has(name)) add(name, captured[name]);
  for (const nested of words.nestedSchemas ?? [])
    if (!all[nested.name]) throw new Error(`${nested.name} follows ${nested.after}, which is not named`);

  // Each component's copy as generated, before any replacement, is what an inline copy is compared with.
  const copies = new Map(Object.entries(all).map(([name, schema]) => [JSON.stringify(schema), name]));
  const replaceCopies = (node: unknown, self: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => replaceCopies(item, self));
    if (node === null || typeof node !== "object") return node;
    const name = copies.get(JSON.stringify(node));
    if (name !== undefined && name !== self) return schemaRef(name);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replaceCopies(value, self)]));
  };
  const schemas: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(all)) {
    const replaced = Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, replaceCopies(value, name)]),
    ) as Schema;
    const example = words.schemaExamples[name];
    if (example === undefined) throw new Error(`the named schema ${name} has no example`);
    schemas[name] = { ...replaced, example };
    const properties = replaced["properties"] as Record<string, Schema> | undefined;
    if (!properties || typeof example !== "object" || example === null) continue;
    for (const [field, property] of Object.entries(properties)) {
      const value = (example as Record<string, unknown>)[field];
      if (value !== undefined && !("$ref" in property)) properties[field] = { ...property, example: value };
    }
  }
  return schemas;
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
  if (schema["type"] === "integer")
    schema["format"] = schema["maximum"] === MAX_ID ? "int64" : (schema["format"] ?? "int32");
  Object.values(schema).forEach(markIntegerFormats);
}
