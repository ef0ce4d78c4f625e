import {
  buildContractDocument,
  type DocumentWords,
  type HeaderDefinition,
  type OpenApiDocument,
  type OpenApiServers,
  type ParameterWords,
  type ResponseWords,
  CONTACT,
  LICENSE,
  TRANSPORT_COMMON_HEADERS,
  TRANSPORT_HEADERS,
  TRANSPORT_STATUS_HEADERS,
  errorExample,
  transportResponses,
} from "./openapi-builder.js";
import { v1Contract } from "./root.js";
import { CURSOR_MAX_LENGTH, DeletedPet, DeletedPets, PetChange, PetChanges, PetPatch } from "./pet-patch.js";
import { Event, EVENT_POSITION_MAX_LENGTH, EVENT_TYPE_LIST, Events, PetUpdated } from "./event-schemas.js";
import { ApiKey } from "./access-schemas.js";
import { WEBHOOK_EVENT_TYPES } from "./webhook-schemas.js";
import {
  Categories,
  Category,
  CategoryRename,
  CountedGroup,
  Inventory,
  InventoryCategory,
  NewCategory,
  StatusCounts,
} from "./store-schemas.js";
import {
  ErrorBody,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  MAX_ID,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  NewPet,
  Pet,
  PET_STATUSES,
  Pets,
  PetStatus,
} from "./schemas.js";

export const INTERFACE_VERSION = "1.0.0";

export type { OpenApiServers } from "./openapi-builder.js";
export { markIntegerFormats } from "./openapi-builder.js";

/**
 * The named schemas (the spec's five resources first), found by the contract's own zod schema wherever a
 * route uses it.
 */
export const V1_SCHEMA_NAMES = new Map<unknown, string>([
  [PetStatus, "PetStatus"],
  [NewPet, "NewPet"],
  [Pet, "Pet"],
  [Pets, "Pets"],
  [ErrorBody, "Error"],
  // Beyond the spec (tag pet-changes).
  [PetPatch, "PetPatch"],
  [DeletedPet, "DeletedPet"],
  [DeletedPets, "DeletedPets"],
  [PetChange, "PetChange"],
  [PetChanges, "PetChanges"],
  // Beyond the spec (tags categories, store).
  [Category, "Category"],
  [Categories, "Categories"],
  [NewCategory, "NewCategory"],
  [CategoryRename, "CategoryRename"],
  [Inventory, "Inventory"],
  // Found inside Inventory (WORDS.nestedSchemas).
  [StatusCounts, "StatusCounts"],
  [InventoryCategory, "InventoryCategory"],
  [CountedGroup, "CountedGroup"],
  // Beyond the spec (tag events).
  [Event, "Event"],
  [Events, "Events"],
  [PetUpdated, "PetUpdated"],
  [ApiKey, "ApiKey"],
]);

const EXAMPLE_PET = { id: 42, name: "Rex", categoryId: 1, status: "available" };
const EXAMPLE_EVENT = {
  id: "msg_2Lk9cVq8XbF3mNp7RtY4wZ1aHs6c",
  position: "781203-1187",
  type: "pet.updated",
  timestamp: "2026-11-28T10:15:00.000Z",
  data: { pet: { ...EXAMPLE_PET, status: "sold" }, previousAttributes: { status: "available" } },
};
/** One example of each named schema; each field's example is taken from its schema's. */
const SCHEMA_EXAMPLES: Record<string, unknown> = {
  PetStatus: "available",
  NewPet: { name: "Rex", categoryId: 1, status: "available" },
  Pet: EXAMPLE_PET,
  Pets: [EXAMPLE_PET, { id: 43, name: "Tom", categoryId: 2 }],
  PetPatch: [
    { op: "test", path: "/status", value: "available" },
    { op: "replace", path: "/status", value: "sold" },
  ],
  DeletedPet: {
    pet: EXAMPLE_PET,
    deletedAt: "2026-11-28T10:15:00.000Z",
    deletedBy: "Ana",
    purgeAt: "2026-12-28T10:15:00.000Z",
  },
  DeletedPets: [
    { pet: EXAMPLE_PET, deletedAt: "2026-11-28T10:15:00.000Z", deletedBy: "Ana", purgeAt: "2026-12-28T10:15:00.000Z" },
  ],
  PetChange: {
    at: "2026-11-28T10:15:00.000Z",
    action: "pet.updated",
    by: { kind: "staff", name: "Ana" },
    changes: [{ field: "status", from: "available", to: "sold" }],
  },
  PetChanges: [
    {
      at: "2026-11-28T10:15:00.000Z",
      action: "pet.updated",
      by: { kind: "staff", name: "Ana" },
      changes: [{ field: "status", from: "available", to: "sold" }],
    },
    {
      at: "2026-11-20T09:00:00.000Z",
      action: "pet.created",
      by: { kind: "key", name: "Stock import" },
      changes: [{ field: "name", from: null, to: "Rex" }],
    },
  ],
  Category: { id: 1, name: "Dogs" },
  Categories: [
    { id: 2, name: "Cats" },
    { id: 1, name: "Dogs" },
  ],
  NewCategory: { name: "Dogs", id: 1 },
  CategoryRename: { name: "Dogs and puppies" },
  StatusCounts: { available: 812, pending: 41, sold: 344, none: 7 },
  CountedGroup: { total: 12, byStatus: { available: 9, pending: 0, sold: 3, none: 0 } },
  InventoryCategory: {
    categoryId: 1,
    name: "Dogs",
    total: 1204,
    byStatus: { available: 812, pending: 41, sold: 344, none: 7 },
  },
  Inventory: {
    total: 1216,
    byStatus: { available: 821, pending: 41, sold: 347, none: 7 },
    byCategory: [
      { categoryId: 1, name: "Dogs", total: 1204, byStatus: { available: 812, pending: 41, sold: 344, none: 7 } },
    ],
    other: { total: 12, byStatus: { available: 9, pending: 0, sold: 3, none: 0 } },
  },
  Event: EXAMPLE_EVENT,
  PetUpdated: EXAMPLE_EVENT.data,
  ApiKey: {
    id: 7,
    name: "Stock import",
    scope: "write",
    prefix: "psk_Xk9aQ2mB",
    createdAt: "2026-11-20T09:00:00.000Z",
    createdBy: "Ana",
    createdByStaffId: 1,
    lastUsedAt: null,
    lastDeprecatedUseAt: null,
    expiresAt: null,
    revokedAt: null,
  },
  Events: [
    EXAMPLE_EVENT,
    {
      ...EXAMPLE_EVENT,
      id: "msg_2Lk9cVq8XbF3mNp7RtY4wZ1aHs6d",
      position: "781204-1188",
      type: "pet.created",
      data: { id: 43, name: "Tom", categoryId: 2 },
    },
  ],
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
const PARAMETERS: Record<string, ParameterWords> = {
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
      "Extension: only animals with a word of the name that starts with this, ignoring case and accents " +
      "(`emi` finds `Émile`, `fluff` finds `Sir Reginald Fluffington`). Words are runs of letters and digits; a search " +
      "of several words matches consecutive words from a word's start (`sir reg` finds `Sir Reginald`), and one with " +
      "no letter or digit finds nothing. The rule of a pet's name: trimmed, 1..100 characters once trimmed; no control characters, " +
      "bidirectional formatting characters or unpaired surrogates (`pattern`). Combines with `status`, `limit` and " +
      "`after`; the `Link` of the next page keeps it.",
    // The schemas' own regex, as zod-to-JSON-Schema writes a `.regex` (Pet.name, NewPet.name).
    schema: { type: "string", minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NAME_PATTERN.source },
    example: "Rex",
  },
  "query:categoryId": {
    description:
      "Extension: only animals with this `categoryId`. Combines with `status`, `name`, `after` and `before`.",
    schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
    example: 1,
  },
  "query:before": {
    description:
      'Extension: the page of ids just below this one, still in ascending order, with `Link` `rel="prev"` (and `rel="next"`). Not with `after`.',
    schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
    example: 43,
  },
  "query:count": {
    description:
      "Extension: `true` adds `X-Total-Count`, the number of animals matching the filters: exact with `status` and `categoryId`; " +
      "with `name`, counted up to 10,000 (then `10000+`).",
    schema: { type: "string", enum: ["true", "false"] },
    example: "true",
  },
  "path:categoryId": {
    description: "The identifier of the category.",
    schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
    example: 1,
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
  ...Object.fromEntries(
    ["updatePet", "deletePet", "restorePet"].map((operation) => [
      `${operation} header:Idempotency-Key`,
      {
        description:
          "Makes the change safe to retry: the same key with the same operation, animal and body replays the first answer; " +
          "with another, `422`. 1..255 printable ASCII characters, e.g. a UUID; scoped to the caller.",
        example: "5f0c2f4e-1b7a-4bb2-9d0e-0a6f1c9d3e21",
      },
    ]),
  ),
  ...Object.fromEntries(
    ["listDeletedPets", "listPetHistory", "listEvents"].map((operation) => [
      `${operation} query:limit`,
      {
        description: "Maximum number of entries to return.",
        schema: { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
        example: LIMIT_DEFAULT,
      },
    ]),
  ),
  ...Object.fromEntries(
    ["listDeletedPets", "listPetHistory"].map((operation) => [
      `${operation} query:after`,
      {
        description: "Continue a listing: the opaque cursor that the previous page's `Link` header carries.",
        schema: { type: "string", minLength: 1, maxLength: CURSOR_MAX_LENGTH, pattern: "^[A-Za-z0-9_-]+$" },
        example: "MjAyNi0xMS0yOFQxMDoxNTowMC4wMDBaLDQy",
      },
    ]),
  ),
  "listEvents query:after": {
    description:
      "Continue after this position: an event's `position`, or the one the previous page's `Link` carries. Absent: from the oldest event kept.",
    schema: { type: "string", minLength: 3, maxLength: EVENT_POSITION_MAX_LENGTH, pattern: "^[0-9]+-[0-9]+$" },
    example: "781203-1187",
  },
  "streamEvents query:lastEventId": {
    description:
      "As the `Last-Event-ID` header, for clients that cannot set headers: the stream starts after this position.",
    schema: { type: "string", minLength: 3, maxLength: EVENT_POSITION_MAX_LENGTH, pattern: "^[0-9]+-[0-9]+$" },
    example: "781203-1187",
  },
  "streamEvents header:Last-Event-ID": {
    description:
      "The last event's position the client saw (an `EventSource` resends it on reconnecting): the events after it come first.",
    schema: { type: "string", minLength: 3, maxLength: EVENT_POSITION_MAX_LENGTH, pattern: "^[0-9]+-[0-9]+$" },
    example: "781203-1187",
  },
  ...Object.fromEntries(
    ["listEvents", "streamEvents"].map((operation) => [
      `${operation} query:types`,
      {
        description: `Only events of these types, separated by commas (${WEBHOOK_EVENT_TYPES.join(", ")}). Absent: every type the caller's scope sees.`,
        schema: { type: "string", maxLength: 200, pattern: EVENT_TYPE_LIST.source },
        example: "pet.updated,pet.deleted",
      },
    ]),
  ),
};

/**
 * Every response in words: the spec's Errors table and operation texts, then the
 * transport's own answers (marked as extensions), each with an example body.
 */
const ERROR_RESPONSES: Record<string, ResponseWords> = {
  ...transportResponses("Extension: "),
  "400": {
    description:
      "The request is missing required fields or contains invalid values; `issues` names each field at fault.",
    example: SCHEMA_EXAMPLES["Error"] as object,
  },
  "401": {
    description: "API key missing or invalid.",
    example: errorExample(401, "UNAUTHORIZED", "The API key is not valid."),
  },
  "403": {
    description: "Extension: the API key is valid, but its scope does not cover this operation; nothing is stored.",
    example: errorExample(403, "FORBIDDEN", "This API key has scope read; createPet needs a key with scope write."),
  },
  "404": {
    description: "The requested animal cannot be found.",
    example: errorExample(404, "NOT_FOUND", "No pet has id 42."),
  },
  "409": {
    description:
      "Extension: a request with this `Idempotency-Key` is still being processed; retry after `Retry-After` seconds.",
    example: errorExample(
      409,
      "IDEMPOTENCY_KEY_IN_USE",
      "A request with this Idempotency-Key is still being processed; retry after 1 second.",
    ),
  },
  "422": {
    description: "Extension: this `Idempotency-Key` was already used with another body.",
    example: errorExample(
      422,
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with another body; send a new key for a new pet.",
    ),
  },
};

/** The spec's words for each operation's own answers. */
const OPERATION_RESPONSES: Record<string, Record<string, ResponseWords>> = {
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
    "403": {
      description:
        "Extension: the API key is valid, but it is an issued key of scope `read`; adding an animal needs scope `write`. " +
        "Nothing is stored.",
    },
  },
  updatePet: {
    "200": { description: "The animal as changed (as it was, when the patch changed nothing)." },
    "400": {
      description:
        "The patch is not one this operation takes, or its result is not a valid animal; names the operation's index or the field.",
      example: errorExample(
        400,
        "VALIDATION_ERROR",
        "Invalid request: body[1].path: path must be one of /name, /categoryId, /status.",
      ),
    },
    "403": {
      description:
        "The caller's scope does not cover the change: `write` for any, `admin` to take an animal out of `sold`; nothing changed.",
      example: errorExample(403, "FORBIDDEN", "Only an admin can return a sold pet; this change needs scope admin."),
    },
    "404": { description: "No animal has this id (or it was deleted)." },
    "409": {
      description:
        "A `test` failed: the animal is not as the caller saw it, and nothing changed; the message names the field, the value stored " +
        "and the value tested. Or a request with this `Idempotency-Key` is still being processed (`Retry-After`).",
      example: errorExample(409, "CONFLICT", "status is sold, not available."),
    },
    "422": { description: "This `Idempotency-Key` was already used with another operation, animal or body." },
  },
  deletePet: {
    "204": { description: "Deleted: restorable until it is purged." },
    "400": { description: "`petId` is not a positive decimal integer, or the `Idempotency-Key` is not valid." },
    "403": { description: "The caller's scope does not cover deleting; nothing changed." },
    "404": { description: "No animal has this id (or it was deleted already)." },
    "409": {
      description: "A request with this `Idempotency-Key` is still being processed; retry after `Retry-After` seconds.",
    },
    "422": { description: "This `Idempotency-Key` was already used with another operation, animal or body." },
  },
  listDeletedPets: {
    "200": {
      description: "Deleted animals, the latest deletion first; `deletedBy` is null for a caller below scope `write`.",
    },
    "400": { description: "A query parameter has an invalid value." },
  },
  restorePet: {
    "200": { description: "The animal, back, with its id and fields." },
    "400": { description: "`petId` is not a positive decimal integer, or the `Idempotency-Key` is not valid." },
    "403": { description: "The caller's scope does not cover restoring; nothing changed." },
    "404": { description: "No deleted animal has this id." },
    "409": {
      description: "A request with this `Idempotency-Key` is still being processed; retry after `Retry-After` seconds.",
    },
    "422": { description: "This `Idempotency-Key` was already used with another operation, animal or body." },
  },
  listPetHistory: {
    "200": { description: "The animal's history, newest first; `by.name` is null for a caller below scope `write`." },
    "400": { description: "`petId` or a query parameter has an invalid value." },
    "404": { description: "No animal, deleted or not, has ever had this id." },
  },
  listCategories: {
    "200": { description: "Every category the store has named, by name." },
  },
  createCategory: {
    "201": { description: "The category, with its id." },
    "400": { description: "The name or the id is not valid." },
    "403": { description: "The caller's scope is not `admin`; nothing is stored." },
    "409": {
      description:
        "The name is another category's (ignoring case and accents), the id is named already, or the store has 1,000 categories.",
      example: errorExample(409, "CONFLICT", "A category is named Dogs already."),
    },
  },
  renameCategory: {
    "200": { description: "The category, renamed." },
    "400": { description: "`categoryId` or the name is not valid." },
    "403": { description: "The caller's scope is not `admin`; nothing changed." },
    "404": {
      description: "No category has this id.",
      example: errorExample(404, "NOT_FOUND", "No category has id 9."),
    },
    "409": {
      description: "The name is another category's (ignoring case and accents).",
      example: errorExample(409, "CONFLICT", "A category is named Cats already."),
    },
  },
  listEvents: {
    "200": {
      description:
        'Events after `after` (from the oldest kept without it), oldest first; `Link` `rel="next"` says where to ask next.',
    },
    "400": { description: "`after` is not a position, or `types` or `limit` is not valid." },
    "403": {
      description: "`types` names `key.*` events, which need scope `admin`.",
      example: errorExample(403, "FORBIDDEN", "Events of type key.created, key.revoked need a key with scope admin."),
    },
    "410": {
      description:
        "`after` is older than the oldest event kept: events after it were purged. Start again without `after`.",
      example: errorExample(
        410,
        "GONE",
        "Events after this position were purged (they are kept 30 days); start again without after.",
      ),
    },
  },
  streamEvents: {
    "200": {
      description:
        "The stream: `retry:` first, then each event as `id:` (its position), `event:` (its type) and `data:` (the event), and a " +
        "`: keep-alive` comment every 15 seconds. It ends with `retry:` when the credential stops being valid or the replica shuts down.",
      mediaSchema: { type: "string", maxLength: 1_000_000_000, pattern: "^(retry|id|event|data|:)" },
      example: `retry: 1000\n\nid: 781203-1187\nevent: pet.updated\ndata: {"id":"msg_2Lk9cVq8XbF3mNp7RtY4wZ1aHs6c","position":"781203-1187","type":"pet.updated","timestamp":"2026-11-28T10:15:00.000Z","data":{"pet":{"id":42,"name":"Rex","categoryId":1,"status":"sold"},"previousAttributes":{"status":"available"}}}\n\n`,
    },
    "400": { description: "`Last-Event-ID`, `lastEventId` or `types` is not valid." },
    "403": { description: "`types` names `key.*` events, which need scope `admin`." },
    "410": {
      description:
        "`Last-Event-ID` is older than the oldest event kept: reconnect without it (and read the feed from its start).",
    },
    "503": {
      description:
        "This replica has as many streams open as it takes, or is shutting down: reconnect after `Retry-After` seconds.",
      example: errorExample(
        503,
        "UNAVAILABLE",
        "This server has as many event streams open as it takes; reconnect after Retry-After seconds.",
      ),
    },
  },
  getInventory: {
    "200": { description: "The store's animals counted by status and by category, exact at the moment it is read." },
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
const REQUEST_BODIES: DocumentWords["requestBodies"] = {
  createPet: { description: "The animal to add. `name` and `categoryId` are required." },
  createCategory: { description: "The category's name, and optionally the id to name." },
  renameCategory: { description: "The category's new name." },
  updatePet: {
    description: "A JSON Patch (RFC 6902) of 1..10 operations, as `application/json-patch+json` or `application/json`.",
  },
};

/** The interface's own headers; the transport's come from the builder. */
const HEADERS: Record<string, HeaderDefinition> = {
  ...TRANSPORT_HEADERS,
  Link: {
    description:
      'Extension: `<...>; rel="next"`, the next page of this listing, when there is one; a page asked with `before` ' +
      'also carries `<...>; rel="prev"`, the page before it, when there is one.',
    schema: { type: "string", maxLength: 4096, pattern: '^<[^>]+>; rel="(next|prev)"(, <[^>]+>; rel="next")?$' },
    example: '</v1/pets?limit=20&after=42>; rel="next"',
  },
  "X-Total-Count": {
    description:
      "Extension, with `count=true`: how many animals match the filters, over all pages. With a `name` search it is counted up to " +
      "10,000, then `10000+`.",
    schema: { type: "string", maxLength: 17, pattern: "^[0-9]+\\+?$" },
    example: "1204",
  },
  Location: {
    description: "The path of the created animal.",
    schema: { type: "string", format: "uri-reference", maxLength: 2048 },
    example: "/v1/pets/42",
  },
  "Idempotent-Replayed": {
    description:
      "Extension: `true` when this is the saved answer to an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  Deprecation: {
    description: "When this operation was deprecated (RFC 9745), as `@` and seconds since the epoch.",
    schema: { type: "string", maxLength: 32, pattern: "^@[0-9]+$" },
    example: "@1767225600",
  },
  Sunset: {
    description: "When this operation goes away (RFC 8594).",
    schema: {
      type: "string",
      maxLength: 29,
      pattern: "^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$",
    },
    example: "Thu, 05 Dec 2030 00:00:00 GMT",
  },
};

const inventoryProperty = (components: Record<string, unknown>, field: string): unknown =>
  ((components["Inventory"] as { properties: Record<string, unknown> } | undefined)?.properties ?? {})[field];

/** The `index`th choice of Event's `data` (Pet, PetUpdated, ApiKey). */
const eventDataChoice = (components: Record<string, Record<string, unknown>>, index: number): unknown => {
  const data = ((components["Event"]?.["properties"] ?? {}) as Record<string, Record<string, unknown[]>>)["data"];
  return (data?.["anyOf"] ?? data?.["oneOf"])?.[index];
};

const WORDS: DocumentWords = {
  schemaNames: V1_SCHEMA_NAMES,
  nestedSchemas: [
    {
      name: "PetStatus",
      after: "NewPet",
      from: (components) => (components["NewPet"]?.["properties"] as Record<string, unknown>)["status"],
    },
    { name: "DeletedPet", after: "DeletedPets", from: (components) => components["DeletedPets"]?.["items"] },
    { name: "PetChange", after: "PetChanges", from: (components) => components["PetChanges"]?.["items"] },
    { name: "Event", after: "Events", from: (components) => components["Events"]?.["items"] },
    { name: "PetUpdated", after: "Event", from: (components) => eventDataChoice(components, 1) },
    { name: "ApiKey", after: "PetUpdated", from: (components) => eventDataChoice(components, 2) },
    { name: "StatusCounts", after: "Inventory", from: (components) => inventoryProperty(components, "byStatus") },
    {
      name: "InventoryCategory",
      after: "StatusCounts",
      from: (components) => (inventoryProperty(components, "byCategory") as Record<string, unknown>)["items"],
    },
    { name: "CountedGroup", after: "InventoryCategory", from: (components) => inventoryProperty(components, "other") },
  ],
  schemaExamples: SCHEMA_EXAMPLES,
  parameters: PARAMETERS,
  statusResponses: ERROR_RESPONSES,
  operationResponses: OPERATION_RESPONSES,
  requestBodies: REQUEST_BODIES,
  headers: HEADERS,
  commonHeaders: TRANSPORT_COMMON_HEADERS,
  statusHeaders: TRANSPORT_STATUS_HEADERS,
  operationHeaders: {
    listPets: { "200": ["Link", "X-Total-Count"] },
    createPet: { "201": ["Location", "Idempotent-Replayed"], "409": ["Retry-After"] },
    getPet: { "200": ["Deprecation", "Sunset"] },
    updatePet: { "200": ["Idempotent-Replayed"], "409": ["Retry-After"] },
    deletePet: { "204": ["Idempotent-Replayed"], "409": ["Retry-After"] },
    restorePet: { "200": ["Idempotent-Replayed"], "409": ["Retry-After"] },
    listDeletedPets: { "200": ["Link"] },
    listPetHistory: { "200": ["Link"] },
    listEvents: { "200": ["Link"] },
  },
};

/**
 * The OpenAPI 3 document of the interface, generated from the contract.
 * `servers` come from configuration: the contract knows no hosts.
 */
export function buildOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  return buildContractDocument(v1Contract, {
    info: {
      title: "Petstore",
      version: INTERFACE_VERSION,
      description: "List, add and read the animals kept in a store.",
      contact: CONTACT,
      license: LICENSE,
    },
    servers: servers.map(({ url, description }) => ({ url, description })),
    tags: [
      { name: "pets", description: "The animals kept in the store." },
      {
        name: "pet-changes",
        description:
          "Beyond the spec (beta): change, delete and restore animals, and read each one's history. The spec shows no " +
          "transitions; these operations are this service's own.",
      },
      {
        name: "categories",
        description:
          "Beyond the spec (beta): the names of the categories animals belong to. Animals keep `categoryId` as the spec shows it.",
      },
      {
        name: "events",
        description:
          "Beyond the spec (beta): the events the webhooks carry, kept 30 days, to poll forward. The spec says events are not shown.",
      },
      {
        name: "store",
        description:
          "Beyond the spec (beta): the store's figures. The spec names store operations without showing them.",
      },
    ],
    pathPrefix: "/v1",
    securityDescription: "The API key, as `Authorization: Bearer <API_KEY>`.",
    words: WORDS,
  });
}
