import { z } from "zod";
import {
  decimalInteger,
  LIMIT_MAX,
  MAX_ID,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  NameText,
  PageLimit,
  positiveSafeInteger,
} from "./schemas.js";

/**
 * What a key may do, each scope covering the one before it: `read` lists and
 * reads pets, `write` also creates them, `admin` also manages keys and reads
 * the activity log.
 */
export const Scope = z
  .enum(["read", "write", "admin"])
  .describe("What a key may do: `read` pets, also `write` them, or also `admin` keys and the activity log.");
export type Scope = z.infer<typeof Scope>;
export const SCOPES = Scope.options;

/** An issued key's secret starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const ISSUED_KEY_PREFIX = "psk_";
/** How many leading characters of a secret are kept, and shown, to recognise a key in lists. */
export const KEY_PREFIX_LENGTH = 12;

/** Longer than any ISO 8601 date-time with an offset and nanoseconds (35 characters). */
export const DATE_TIME_MAX_LENGTH = 40;
const dateTime = z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true });
/** An issued key's id in decimal, or `configured-N` for the N-th key of API_KEYS. */
const SESSION_KEY_ID_MAX_LENGTH = 32;
/**
 * A configured key is named by its fingerprint's first 12 hex digits (HMAC-SHA256 of the key under the
 * deployment's salt), never by its position in API_KEYS, which changes when keys are rotated.
 */
const CONFIGURED_KEY_ID = "configured-[0-9a-f]{12}";
const SessionKeyId = z
  .string()
  .max(SESSION_KEY_ID_MAX_LENGTH)
  .regex(new RegExp(`^(?:[1-9][0-9]*|${CONFIGURED_KEY_ID})$`));
/** Who made a change: a key's id as in a Session, or `operator` for the operator command. */
const ActorKeyId = z
  .string()
  .max(SESSION_KEY_ID_MAX_LENGTH)
  .regex(new RegExp(`^(?:[1-9][0-9]*|${CONFIGURED_KEY_ID}|operator|retention)$`));
/**
 * A key's or a pet's name as shown (an issued key's, `Configured key N`, `Operator command`, a pet's):
 * the characters of every stored name (`NAME_PATTERN`).
 */
export const KeyLabel = z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN);
/** Longest address text: an IPv6 address with an embedded IPv4 address, and room for a zone. */
const CLIENT_ADDRESS_MAX_LENGTH = 64;
/**
 * The client's address as the API saw it (an IP address, `net.isIP`): IPv4 dotted, or IPv6 (with a colon,
 * maybe an embedded IPv4) and its zone, if any (Node allows letters, digits, `-`, `.` and `:` there).
 */
const CLIENT_ADDRESS = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(?:%[0-9A-Za-z._~:-]+)?)$/;
/**
 * The `X-Request-Id` the API sets (a UUID, as `crypto.randomUUID()` writes it); documented as the token it
 * is to a client, letters, digits and hyphens, which is also what the admin app's tests stand in with.
 */
const REQUEST_ID_MAX_LENGTH = 36;
const REQUEST_ID = /^[0-9A-Za-z-]+$/;
/** The characters of a secret after `psk_`: base64url. */
const SECRET_ALPHABET = "[A-Za-z0-9_-]";
/** `psk_` and 43 base64url characters: 32 random bytes. */
export const ISSUED_KEY_SECRET = new RegExp(`^${ISSUED_KEY_PREFIX}${SECRET_ALPHABET}{43}$`);
/** The first KEY_PREFIX_LENGTH characters of a secret: `psk_` and 8 base64url characters. */
const ISSUED_KEY_SECRET_PREFIX = new RegExp(
  `^${ISSUED_KEY_PREFIX}${SECRET_ALPHABET}{${KEY_PREFIX_LENGTH - ISSUED_KEY_PREFIX.length}}$`,
);
/** listKeys answers at most this many keys, the newest: a store's staff and programs are far fewer. */
export const LIST_KEYS_MAX = 1000;

export const ApiKeyId = positiveSafeInteger("keyId");

/** A key's name: the rule of every stored name (`NameText`: trimmed, 1..100, `NAME_PATTERN`), as pet names. */
export const KeyName = NameText.describe("The key's name, shown in lists and in the activity log.");

/** An issued key as listed: never its secret, nor the secret's digest. */
export const ApiKey = z
  .object({
    id: ApiKeyId,
    name: KeyName,
    scope: Scope,
    /** The secret's first characters (`psk_` and 8 more), to recognise it. */
    prefix: z.string().length(KEY_PREFIX_LENGTH).regex(ISSUED_KEY_SECRET_PREFIX),
    createdAt: dateTime,
    /** The name of the key that created it; null when the operator command did. */
    createdBy: KeyLabel.nullable(),
    /** The person whose session created it (disabling them can revoke it); null for a key, a key's session or the operator command. */
    createdByStaffId: positiveSafeInteger("createdByStaffId").nullable(),
    /** Written at first use, then at most once a minute per key and API process. */
    lastUsedAt: dateTime.nullable(),
    /** The last call of a deprecated operation (`getPet`) with this key, written like `lastUsedAt`. */
    lastDeprecatedUseAt: dateTime.nullable(),
    expiresAt: dateTime.nullable(),
    revokedAt: dateTime.nullable(),
  })
  .describe("An issued key as listed: never its secret, nor the secret's digest.");
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeys = z
  .array(ApiKey)
  .max(LIST_KEYS_MAX)
  .describe(`Issued keys, newest first (at most ${LIST_KEYS_MAX}).`);

/** Request body of createKey. Unknown fields are stripped. */
export const NewApiKey = z
  .object({
    name: KeyName,
    scope: Scope,
    expiresAt: z
      .string({ invalid_type_error: "expiresAt must be an ISO 8601 date-time string" })
      .max(DATE_TIME_MAX_LENGTH, `expiresAt must be at most ${DATE_TIME_MAX_LENGTH} characters`)
      .datetime({ offset: true, message: "expiresAt must be an ISO 8601 date-time, e.g. 2031-01-01T00:00:00Z" })
      .refine((value) => Date.parse(value) > Date.now(), "expiresAt must be in the future")
      .optional(),
  })
  .strip()
  .describe("Request body of createKey: a name, a scope and an optional expiry in the future.");
export type NewApiKey = z.infer<typeof NewApiKey>;

/** The answer to createKey: the key, and its secret, shown this once. */
export const CreatedApiKey = z
  .object({
    key: ApiKey,
    secret: z
      .string()
      .length(ISSUED_KEY_PREFIX.length + 43)
      .regex(ISSUED_KEY_SECRET)
      .describe("The key's secret, shown this once: send it as `Authorization: Bearer <secret>`."),
  })
  .describe("The answer to createKey: the key, and its secret, shown this once.");
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/**
 * Who is calling. A key: `keyId` is an issued key's id in decimal, or `configured-<12 hex>` for a key of
 * API_KEYS (its fingerprint's first 12 hex digits), and `staffId` is null. A person (a session token bought with their cookie): `staffId` is theirs
 * and `keyId` null. A key's browser session: its key's `keyId`. `name` is what the admin app's header shows
 * (`Signed in as <name> (<scope>)`): the person's or the key's name.
 */
export const Session = z
  .object({
    keyId: SessionKeyId.nullable(),
    staffId: positiveSafeInteger("staffId").nullable(),
    name: KeyLabel,
    scope: Scope,
    /** When the credential of this request expires: a key's expiry (null: never), or a session token's. */
    expiresAt: dateTime.nullable(),
  })
  .describe("Who a request was made by: a key, or a signed-in person.");
export type Session = z.infer<typeof Session>;

export const KeyIdParams = z.object({
  keyId: decimalInteger("keyId", positiveSafeInteger("keyId")),
});

/**
 * listKeys' query: newest first, `limit` keys a page (default and most LIST_KEYS_MAX), `after` the last id of
 * the page before (a page that may have more carries `Link rel="next"`), optionally only the keys a person created.
 */
export const ListKeysQuery = z
  .object({
    limit: decimalInteger(
      "limit",
      z.number().int().min(1, "limit must be at least 1").max(LIST_KEYS_MAX, `limit must be at most ${LIST_KEYS_MAX}`),
    ).default(String(LIST_KEYS_MAX)),
    after: decimalInteger(
      "after",
      z.number().int().min(1, "after must be at least 1").max(MAX_ID, `after must be at most ${MAX_ID}`),
    ).optional(),
    createdByStaffId: decimalInteger("createdByStaffId", positiveSafeInteger("createdByStaffId")).optional(),
  })
  .strip();
export type ListKeysQueryInput = z.input<typeof ListKeysQuery>;
export type ListKeysQuery = z.output<typeof ListKeysQuery>;

export const AuditAction = z
  .enum([
    "pet.created",
    "key.created",
    "key.revoked",
    "webhook.created",
    "webhook.updated",
    "webhook.deleted",
    "webhook.secret_rotated",
    "staff.invited",
    "staff.signed_in",
    "key.signed_in",
    "staff.role_changed",
    "staff.disabled",
    "passkey.added",
    "passkey.removed",
    "session.ended",
    // Pets that change (beyond the spec): a pet's corrections, deletion, restore, and its purge by retention.
    "pet.updated",
    "pet.deleted",
    "pet.restored",
    "pet.purged",
    // The store at a glance (beyond the spec): categories named and renamed.
    "category.created",
    "category.renamed",
  ])
  .describe("What happened.");
export type AuditAction = z.infer<typeof AuditAction>;
export const AUDIT_ACTIONS = AuditAction.options;
export const AuditTargetType = z.enum(["pet", "key", "webhook", "staff", "category"]).describe("What it happened to.");
export type AuditTargetType = z.infer<typeof AuditTargetType>;

/**
 * Who did it: a key's id (as in a Session) and its name then, with `staffId` null; or a person, with
 * their `staffId` and name then, and `keyId` null. The operator command is the key id `operator`.
 */
export const AuditActor = z.object({
  keyId: ActorKeyId.nullable(),
  staffId: positiveSafeInteger("actor.staffId").nullable(),
  name: KeyLabel,
});
export type AuditActor = z.infer<typeof AuditActor>;

/** One entry of the append-only activity log, written in the transaction of the change it records. */
export const AuditEvent = z
  .object({
    id: positiveSafeInteger("id"),
    at: dateTime,
    action: AuditAction,
    actor: AuditActor,
    target: z.object({
      type: AuditTargetType,
      id: positiveSafeInteger("target.id"),
      /** The pet's or key's name when the event happened. */
      label: KeyLabel,
    }),
    /** A short word that says more: how a person signed in (`passkey`, `sso`), a new role; else null. */
    detail: z
      .string()
      .max(32)
      .regex(/^[a-z_]+$/)
      .nullable(),
    /** The `X-Request-Id` of the response that made the change; null for the operator command. */
    requestId: z.string().max(REQUEST_ID_MAX_LENGTH).regex(REQUEST_ID).nullable(),
    /** The client's address as the API saw it (see TRUST_PROXY); null for the operator command. */
    clientAddress: z.string().max(CLIENT_ADDRESS_MAX_LENGTH).regex(CLIENT_ADDRESS).nullable(),
  })
  .describe("One entry of the append-only activity log.");
export type AuditEvent = z.infer<typeof AuditEvent>;
export const AuditEvents = z.array(AuditEvent).max(LIMIT_MAX).describe("A page of the activity log, newest first.");

export const ListAuditEventsQuery = z
  .object({
    limit: PageLimit,
    /** Keyset pagination, newest first: only events with an id lower than this. */
    after: decimalInteger(
      "after",
      z.number().int().min(1, "after must be at least 1").max(MAX_ID, `after must be at most ${MAX_ID}`),
    ).optional(),
    action: AuditAction.optional(),
    targetType: AuditTargetType.optional(),
    targetId: decimalInteger("targetId", positiveSafeInteger("targetId")).optional(),
  })
  .strip();
export type ListAuditEventsQueryInput = z.input<typeof ListAuditEventsQuery>;
export type ListAuditEventsQuery = z.output<typeof ListAuditEventsQuery>;
