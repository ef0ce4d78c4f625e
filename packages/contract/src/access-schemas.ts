import { z } from "zod";
import { decimalInteger, MAX_ID, NAME_MAX_LENGTH, PageLimit, positiveSafeInteger } from "./schemas.js";

/**
 * What a key may do, each scope covering the one before it: `read` lists and
 * reads pets, `write` also creates them, `admin` also manages keys and reads
 * the activity log.
 */
export const Scope = z.enum(["read", "write", "admin"]);
export type Scope = z.infer<typeof Scope>;
export const SCOPES = Scope.options;

/** True when a key of scope `held` may call an operation that needs `needed`. */
export function scopeCovers(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}

/** An issued key's secret starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const ISSUED_KEY_PREFIX = "psk_";
/** How many leading characters of a secret are kept, and shown, to recognise a key in lists. */
export const KEY_PREFIX_LENGTH = 12;

const dateTime = z.string().datetime({ offset: true });

export const ApiKeyId = positiveSafeInteger("keyId");

export const KeyName = z
  .string({ required_error: "name is required", invalid_type_error: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(NAME_MAX_LENGTH, `name must be at most ${NAME_MAX_LENGTH} characters`)
  // Names are shown in tables and logs: no control characters (as pet names, see docs/interface.md).
  .refine((name) => !/\p{Cc}/u.test(name), "name must not contain control characters");

/** An issued key as listed: never its secret, nor the secret's digest. */
export const ApiKey = z.object({
  id: ApiKeyId,
  name: KeyName,
  scope: Scope,
  /** The secret's first characters (`psk_` and 8 more), to recognise it. */
  prefix: z.string(),
  createdAt: dateTime,
  /** The name of the key that created it; null when the operator command did. */
  createdBy: z.string().nullable(),
  /** Written at first use, then at most once a minute per key and API process. */
  lastUsedAt: dateTime.nullable(),
  /** The last call of a deprecated operation (`getPet`) with this key, written like `lastUsedAt`. */
  lastDeprecatedUseAt: dateTime.nullable(),
  expiresAt: dateTime.nullable(),
  revokedAt: dateTime.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeys = z.array(ApiKey);

/** Request body of createKey. Unknown fields are stripped. */
export const NewApiKey = z
  .object({
    name: KeyName,
    scope: Scope,
    expiresAt: z
      .string({ invalid_type_error: "expiresAt must be an ISO 8601 date-time string" })
      .datetime({ offset: true, message: "expiresAt must be an ISO 8601 date-time, e.g. 2031-01-01T00:00:00Z" })
      .refine((value) => Date.parse(value) > Date.now(), "expiresAt must be in the future")
      .optional(),
  })
  .strip();
export type NewApiKey = z.infer<typeof NewApiKey>;

/** The answer to createKey: the key, and its secret, shown this once. */
export const CreatedApiKey = z.object({
  key: ApiKey,
  secret: z.string(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** Who the caller's key is. `keyId` is an issued key's id in decimal, or `configured-N` for the N-th key of API_KEYS. */
export const Session = z.object({
  keyId: z.string(),
  name: z.string(),
  scope: Scope,
  expiresAt: dateTime.nullable(),
});
export type Session = z.infer<typeof Session>;

export const KeyIdParams = z.object({
  keyId: decimalInteger("keyId", positiveSafeInteger("keyId")),
});

/** revokeKey takes no body; an empty JSON object is accepted too. */
export const RevokeKeyBody = z.object({}).strip().optional();

export const AuditAction = z.enum(["pet.created", "key.created", "key.revoked"]);
export type AuditAction = z.infer<typeof AuditAction>;
export const AUDIT_ACTIONS = AuditAction.options;
export const AuditTargetType = z.enum(["pet", "key"]);
export type AuditTargetType = z.infer<typeof AuditTargetType>;

/** Who did it: the key's id (as in a Session) and its name then. The operator command is `operator`. */
export const AuditActor = z.object({ keyId: z.string(), name: z.string() });
export type AuditActor = z.infer<typeof AuditActor>;

/** One entry of the append-only activity log, written in the transaction of the change it records. */
export const AuditEvent = z.object({
  id: positiveSafeInteger("id"),
  at: dateTime,
  action: AuditAction,
  actor: AuditActor,
  target: z.object({
    type: AuditTargetType,
    id: positiveSafeInteger("target.id"),
    /** The pet's or key's name when the event happened. */
    label: z.string(),
  }),
  /** The `X-Request-Id` of the response that made the change; null for the operator command. */
  requestId: z.string().nullable(),
  /** The client's address as the API saw it (see TRUST_PROXY); null for the operator command. */
  clientAddress: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;
export const AuditEvents = z.array(AuditEvent);

export const ListAuditEventsQuery = z
  .object({
    limit: PageLimit,
    /** Keyset pagination, newest first: only events with an id lower than this. */
    after: decimalInteger("after", z.number().int().min(1, "after must be at least 1").max(MAX_ID, `after must be at most ${MAX_ID}`)).optional(),
    action: AuditAction.optional(),
    targetType: AuditTargetType.optional(),
    targetId: decimalInteger("targetId", positiveSafeInteger("targetId")).optional(),
  })
  .strip();
export type ListAuditEventsQueryInput = z.input<typeof ListAuditEventsQuery>;
export type ListAuditEventsQuery = z.output<typeof ListAuditEventsQuery>;
