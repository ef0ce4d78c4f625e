import type { AuditContext } from "../activity/audit-event.js";
import type { WebhookEventType } from "../activity/event-types.js";
import { toBoolean, toDate, toDateOrNull, toNumber, type SqlStatement } from "../data/sql-work.js";

/** A webhook endpoint as stored, its secrets included: never answered as is (see toWebhook). */
export interface WebhookEndpointRecord {
  id: number;
  url: string;
  description: string | null;
  /** Empty: every event type. */
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
  createdBy: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
}

/** One try at sending a delivery, as the delivery log shows it. */
export interface DeliveryAttempt {
  at: string;
  /** Null on a network error, a refused destination or a timeout. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first 1 KiB of the answer's body. */
  answer: string;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface DeliveryRecord {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: WebhookEventType;
  status: DeliveryStatus;
  createdAt: Date;
  attempts: DeliveryAttempt[];
}

/** A delivery a sender holds the lease of, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: WebhookEventType;
  /** The event's `data`, as JSON text. */
  data: string;
  createdAt: Date;
  /** Attempts made before this one. */
  attemptCount: number;
  claimToken: string;
}

/** What an attempt (or a decision not to send) leaves behind. */
export interface DeliveryOutcome {
  /** Null when nothing was sent (the endpoint is disabled or gone). */
  attempt: DeliveryAttempt | null;
  status: DeliveryStatus;
  /** When pending: when to try again. */
  nextAttemptAt: Date;
  /** The endpoint's side: a success clears `failingSince`, a failure sets it if unset; `disable` turns it off with that reason. */
  endpoint: { succeeded: boolean; at: Date; disable?: string } | null;
}

export interface NewEndpoint {
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  secret: string;
  createdBy: string;
}

export interface EndpointChanges {
  url?: string | undefined;
  description?: string | null | undefined;
  eventTypes?: WebhookEventType[] | undefined;
  enabled?: boolean | undefined;
}

/** A delivery keeps its newest this many attempts (the older ones are dropped as new ones come). */
export const ATTEMPTS_KEPT = 100;

/** How a claim shares this process's sending slots among the endpoints. */
export interface ClaimShares {
  /** At most this many sends per endpoint at once in this process (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT). */
  perEndpoint: number;
  /** This process's sends in flight now, by endpoint id. */
  inFlight: ReadonlyMap<number, number>;
  /** The endpoint served last: each round of the endpoints starts after it (0 at first). */
  lastEndpoint: number;
}

/** What a resend did: the delivery due again, `being sent` (an attempt of it holds a live lease), or null when there is no such delivery. */
export type ResendResult = DeliveryRecord | "being sent" | null;

export interface DeliveryQuery {
  webhookId: number;
  take: number;
  /** Only deliveries with a lower id (newest first). */
  before?: number | undefined;
  status?: DeliveryStatus | undefined;
}

/** Webhook endpoints and their deliveries, fanned out from the event log the activity log's writers fill. */
export interface WebhookRepository {
  listEndpoints(): Promise<WebhookEndpointRecord[]>;
  findEndpoint(id: number): Promise<WebhookEndpointRecord | null>;
  /**
   * Each change below writes its audit event (webhook.created, .updated, .deleted, .secret_rotated) in its
   * own transaction, when `audit` is given (the routes always give it).
   */
  createEndpoint(endpoint: NewEndpoint, audit?: AuditContext): Promise<WebhookEndpointRecord>;
  /** Null when there is no such endpoint. Enabling one clears its disabledReason and failingSince. */
  updateEndpoint(id: number, changes: EndpointChanges, audit?: AuditContext): Promise<WebhookEndpointRecord | null>;
  /** Removes it and its deliveries; false when there is no such endpoint. */
  deleteEndpoint(id: number, audit?: AuditContext): Promise<boolean>;
  /** The new secret, the old one signed with too until `previousUntil`. */
  rotateSecret(
    id: number,
    secret: string,
    previousUntil: Date,
    audit?: AuditContext,
  ): Promise<WebhookEndpointRecord | null>;
  /** A `webhook.test` delivery to this endpoint alone, due now. */
  createTestDelivery(webhookId: number, eventId: string, data: string, at: Date): Promise<DeliveryRecord>;
  listDeliveries(query: DeliveryQuery): Promise<DeliveryRecord[]>;
  /**
   * Due now again (pending), with the same webhook-id; null when there is no such delivery of this endpoint;
   * `being sent`, and nothing changed, while a sender holds a live lease on it (one attempt at a time).
   */
  resendDelivery(webhookId: number, id: number, at: Date): Promise<ResendResult>;
  /**
   * Turns up to `take` events of the log after the fan-out's cursor (oldest first) into a delivery per endpoint subscribed to
   * each, and removes them, in one transaction: every event is fanned out once, whoever runs it.
   */
  fanOut(take: number): Promise<void>;
  /**
   * Takes the lease of up to `take` due deliveries that nobody holds (or whose lease ran out), in one
   * short statement: on PostgreSQL `FOR UPDATE SKIP LOCKED` picks them, on SQLite the write lock. They go
   * round the endpoints (each endpoint's oldest due one, from the one after `shares.lastEndpoint`, then each
   * one's second, ...), never past `shares.perEndpoint` in flight for an endpoint; answered in that order.
   */
  claimDue(
    now: Date,
    leaseUntil: Date,
    claimToken: string,
    take: number,
    shares: ClaimShares,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records an outcome, if the lease is still this claim's (else another sender took it over: nothing is
   * written); the attempt joins the delivery's newest ATTEMPTS_KEPT.
   */
  recordOutcome(delivery: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void>;
  /** Erases the old secrets whose overlap ended by `now` (previousSecret and previousSecretUntil become null). */
  eraseEndedSecrets(now: Date): Promise<void>;
  /** Gives the lease back unsent (shutting down): due again for any sender. */
  release(delivery: ClaimedDelivery): Promise<void>;
  /**
   * Sends again every event of the log in `[since, until]` of the endpoint's types that it has not
   * answered 2xx: a failed delivery becomes due now, an event it never got (raised while it was disabled)
   * gets a delivery, due now, with the event's own webhook-id; events from before it was registered are
   * not its own. A delivery pending already is left as it is. Answers how many were queued; null when there is no such endpoint.
   */
  recoverEvents(webhookId: number, since: Date, until: Date, at: Date): Promise<number | null>;
  /** When the oldest event not yet delivered (pending, or not fanned out yet) happened; null when there is none. */
  oldestPendingAt(): Promise<Date | null>;
}

/**
 * The senders' side of the storage, written per provider where the event log's order differs and where it was
 * measured (decision 040): `sqlite-webhook-repository.ts`, `prisma-webhook-repository.ts`.
 */
export interface WebhookSenderStorage extends Pick<WebhookRepository, "fanOut" | "claimDue" | "recordOutcome"> {
  /** The oldest event not fanned out yet, its time as "createdAt"; no row when there is none. */
  readonly oldestEvent: SqlStatement;
}

/** How many events one fan-out takes at most. */
export const FAN_OUT_BATCH = 200;

/**
 * The fan-out (both providers): a delivery per event of `events` (a table of "id", "eventId", "eventType",
 * "data" and "createdAt" of the event log's rows, aliased "v"; the caller may add a `WHERE` on it) and endpoint subscribed to it now and registered no
 * later than it happened, due at once. An event whose endpoints were all deleted before its fan-out
 * goes nowhere, and an endpoint registered since never gets it, however long the senders were stopped.
 * Run by the senders, never on a request's path, in the transaction that moves the fan-out's cursor in
 * the event log past those events.
 */
export const fanOutEvents = (events: string): string => `
  INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
  SELECT "e"."id", "v"."eventId", "v"."eventType", "v"."data", "v"."createdAt", "v"."createdAt"
  FROM ${events} AS "v" JOIN "WebhookEndpoint" AS "e"
    ON "e"."enabled" AND "e"."createdAt" <= "v"."createdAt" AND ("e"."eventTypes" = '' OR (' ' || "e"."eventTypes" || ' ') LIKE ('% ' || "v"."eventType" || ' %'))`;

/** A delivery row as both databases return it. */
export interface DeliveryRow {
  id: number | bigint;
  webhookId: number | bigint;
  eventId: string;
  eventType: string;
  status: string;
  createdAt: Date | string;
  attempts: string;
}

export const toDeliveryRecord = (row: DeliveryRow): DeliveryRecord => ({
  id: toNumber(row.id),
  webhookId: toNumber(row.webhookId),
  eventId: row.eventId,
  eventType: row.eventType as WebhookEventType,
  status: row.status as DeliveryStatus,
  createdAt: toDate(row.createdAt),
  attempts: JSON.parse(row.attempts) as DeliveryAttempt[],
});

/** A claimed delivery's row as both databases return it. */
export interface ClaimRow {
  id: number | bigint;
  webhookId: number | bigint;
  eventId: string;
  eventType: string;
  data: string;
  createdAt: Date | string;
  attemptCount: number | bigint;
}

/** The rows a claim took, in the order they were `picked` (the claim's statement answers them in any order). */
export function claimedInOrder(
  rows: readonly ClaimRow[],
  picked: ReadonlyArray<number | bigint>,
  claimToken: string,
): ClaimedDelivery[] {
  const order = new Map(picked.map((id, index) => [toNumber(id), index]));
  return rows
    .map((row): ClaimedDelivery => ({
      ...row,
      id: toNumber(row.id),
      webhookId: toNumber(row.webhookId),
      eventType: row.eventType as WebhookEventType,
      createdAt: toDate(row.createdAt),
      attemptCount: toNumber(row.attemptCount),
      claimToken,
    }))
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** An endpoint row as both databases return it. */
export interface EndpointRow {
  id: number | bigint;
  url: string;
  description: string | null;
  eventTypes: string;
  enabled: boolean | number;
  disabledReason: string | null;
  createdAt: Date | string;
  createdBy: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | string | null;
  failingSince: Date | string | null;
}

export const toEndpointRecord = (row: EndpointRow): WebhookEndpointRecord => ({
  id: toNumber(row.id),
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes === "" ? [] : (row.eventTypes.split(" ") as WebhookEventType[]),
  enabled: toBoolean(row.enabled),
  disabledReason: row.disabledReason,
  createdAt: toDate(row.createdAt),
  createdBy: row.createdBy,
  secret: row.secret,
  previousSecret: row.previousSecret,
  previousSecretUntil: toDateOrNull(row.previousSecretUntil),
  failingSince: toDateOrNull(row.failingSince),
});

/** eventTypes as stored: space-separated, empty for every type. */
export const storedEventTypes = (types: readonly WebhookEventType[]): string => [...new Set(types)].join(" ");

/** What the activity log calls an endpoint: its description, else its URL's host; a name's length at most (100), never half a pair. */
export function webhookLabel(endpoint: Pick<WebhookEndpointRecord, "description" | "url">): string {
  let label = endpoint.description?.trim() || new URL(endpoint.url).hostname;
  if (label.length > 100) label = label.slice(0, 100);
  if (/[\ud800-\udbff]$/.test(label)) label = label.slice(0, -1);
  return label.trim() || "webhook";
}
