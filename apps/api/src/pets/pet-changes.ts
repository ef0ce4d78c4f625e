import { createHash } from "node:crypto";
import type { DeletedPet, Pet, PetChange, PetChangeAction, PetFieldChange, PetPatch } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/recorded-activity.js";
import {
  execute,
  firstRow,
  forUpdate,
  joinSql,
  provider,
  rows,
  sql,
  toDate,
  toNumber,
  type SqlRunner,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";
import { idempotencyLockId } from "./idempotent-create.js";
import type { PetChangeCall, PetChangeOutcome, PetChangeRequest, UnkeyedUpdate } from "./pet-change-types.js";
import { nameKey } from "./name-key.js";
import { applyPetPatch } from "./pet-patch.js";
import { rewordPet } from "./pet-words.js";
import { toPet, type PetRow } from "./pet-row.js";

/**
 * Pets that change (beyond the spec; docs/decisions/045-pets-that-change.md): updatePet, deletePet and
 * restorePet, each one unit of work written once for both providers (data/sql-work.ts), and the reads
 * beside them (deleted pets, a pet's history).
 *
 * Each change reads the pet in its own transaction (`FOR UPDATE` on PostgreSQL; SQLite's `BEGIN
 * IMMEDIATE` holds the write lock already), applies to it what the caller asked, `test`s included,
 * writes it, and records the change in the activity log (its history, its webhook event) before it
 * commits: two callers racing on one pet, on two replicas, are served one after the other, and the
 * second sees the first's result. A deleted pet moves to "DeletedPet", so the spec's operations never
 * read past it; restorePet moves it back with its id.
 */

export type { PetChangeCall, PetChangeOutcome, PetChangeRequest, UnkeyedUpdate } from "./pet-change-types.js";

/** The fields a new pet was created with, as its first history entry shows them. */
export function createdChanges(pet: {
  name: string;
  categoryId: number;
  status?: string | undefined;
}): PetFieldChange[] {
  const changes: PetFieldChange[] = [
    { field: "name", from: null, to: pet.name },
    { field: "categoryId", from: null, to: pet.categoryId },
  ];
  if (pet.status !== undefined) changes.push({ field: "status", from: null, to: pet.status });
  return changes;
}

/**
 * What an `Idempotency-Key` stands for: the operation, its pet and its validated body (the patch as
 * parsed: the same operations in the same order), so the same key sent with another is refused.
 */
export function changeFingerprint(request: PetChangeRequest): string {
  const body = request.operation === "updatePet" ? request.patch : null;
  return createHash("sha256")
    .update(JSON.stringify([request.operation, request.petId, body]), "utf8")
    .digest("hex");
}

const PET_COLUMNS = sql`"id", "name", "categoryId", "status"`;

/** A patch planned against the pet as stored: the answer now, or the write to make. */
export type PlannedUpdate =
  | { kind: "answer"; outcome: PetChangeOutcome }
  | {
      kind: "write";
      pet: Pet;
      changes: PetFieldChange[];
      /** The pet's new search key when its name changed (the old one is nameKey(stored.name)). */
      key: string | undefined;
      categoryChanged: boolean;
      statusChanged: boolean;
      /** The changed fields' values before, as `pet.updated` carries them. */
      previousAttributes: Record<string, unknown>;
    };

/**
 * What updatePet does to the pet as stored, before any write (both providers, and SQLite's hand-written
 * path, sqlite-pet-repository.ts). A patch that changes nothing answers the pet as it is: no write, no event.
 */
export function planUpdate(stored: Pet, patch: PetPatch, mayReturnSold: boolean): PlannedUpdate {
  const plan = applyPetPatch(stored, patch, { mayReturnSold });
  if (plan.kind !== "applied")
    return { kind: "answer", outcome: plan.kind === "conflict" ? { kind: "conflict", message: plan.message } : plan };
  if (plan.changes.length === 0)
    return { kind: "answer", outcome: { kind: "done", status: 200, pet: stored, replayed: false } };
  const changed = new Set(plan.changes.map((change) => change.field));
  return {
    kind: "write",
    pet: plan.pet,
    changes: plan.changes,
    key: changed.has("name") ? nameKey(plan.pet.name) : undefined,
    categoryChanged: changed.has("categoryId"),
    statusChanged: changed.has("status"),
    previousAttributes: Object.fromEntries(plan.changes.map((change) => [change.field, change.from])),
  };
}

function* updatePet(
  call: PetChangeCall & { request: { operation: "updatePet" } },
  now: Date,
): SqlWork<PetChangeOutcome> {
  const { petId, patch } = call.request;
  const row = yield* firstRow<PetRow>(sql`SELECT ${PET_COLUMNS} FROM "Pet" WHERE "id" = ${petId}${yield* forUpdate()}`);
  if (!row) return { kind: "not-found" };
  const stored = toPet(row);
  const planned = planUpdate(stored, patch, call.mayReturnSold);
  if (planned.kind === "answer") return planned.outcome;
  const { pet, key } = planned;
  // Only the changed columns are set: SQLite rewrites an index's entry whenever its column is in the SET
  // list, changed or not, and a rename or a sale is most of the changes a store makes.
  const sets: SqlStatement[] = [];
  if (key !== undefined) sets.push(sql`"name" = ${pet.name}, "nameKey" = ${key}`);
  if (planned.categoryChanged) sets.push(sql`"categoryId" = ${pet.categoryId}`);
  if (planned.statusChanged) sets.push(sql`"status" = ${pet.status ?? null}`);
  yield* execute(sql`UPDATE "Pet" SET ${joinSql(sets, ", ")} WHERE "id" = ${petId}`);
  // A stored key is always nameKey's of the stored name (start-up re-keys any other before serving).
  if (key !== undefined) yield* rewordPet(petId, nameKey(stored.name), key);
  yield* recordActivity(
    now,
    "pet.updated",
    { type: "pet", id: petId, label: pet.name },
    call.audit,
    { pet, previousAttributes: planned.previousAttributes },
    planned.changes,
  );
  return { kind: "done", status: 200, pet, replayed: false };
}

function* deletePet(call: PetChangeCall, now: Date): SqlWork<PetChangeOutcome> {
  const { petId } = call.request;
  const row = yield* firstRow<PetRow>(sql`SELECT ${PET_COLUMNS} FROM "Pet" WHERE "id" = ${petId}${yield* forUpdate()}`);
  if (!row) return { kind: "not-found" };
  const pet = toPet(row);
  yield* execute(
    sql`INSERT INTO "DeletedPet" ("id", "name", "categoryId", "status", "createdAt", "nameKey", "deletedAt", "deletedBy")
        SELECT "id", "name", "categoryId", "status", "createdAt", "nameKey", ${now}, ${call.audit.actor.name} FROM "Pet" WHERE "id" = ${petId}`,
  );
  yield* execute(sql`DELETE FROM "Pet" WHERE "id" = ${petId}`);
  yield* rewordPet(petId, nameKey(pet.name), null);
  yield* recordActivity(now, "pet.deleted", { type: "pet", id: petId, label: pet.name }, call.audit, pet, []);
  return { kind: "done", status: 204, pet: undefined, replayed: false };
}

function* restorePet(call: PetChangeCall, now: Date): SqlWork<PetChangeOutcome> {
  const { petId } = call.request;
  const row = yield* firstRow<PetRow>(
    sql`SELECT ${PET_COLUMNS} FROM "DeletedPet" WHERE "id" = ${petId}${yield* forUpdate()}`,
  );
  if (!row) return { kind: "not-found" };
  const pet = toPet(row);
  // The key is computed again, not copied: a pet deleted before the key's rule changed comes back under today's.
  const key = nameKey(pet.name);
  yield* execute(
    sql`INSERT INTO "Pet" ("id", "name", "categoryId", "status", "createdAt", "nameKey")
        SELECT "id", "name", "categoryId", "status", "createdAt", ${key} FROM "DeletedPet" WHERE "id" = ${petId}`,
  );
  yield* rewordPet(petId, null, key);
  yield* execute(sql`DELETE FROM "DeletedPet" WHERE "id" = ${petId}`);
  yield* recordActivity(now, "pet.restored", { type: "pet", id: petId, label: pet.name }, call.audit, pet, []);
  return { kind: "done", status: 200, pet, replayed: false };
}

function* change(call: PetChangeCall, now: Date): SqlWork<PetChangeOutcome> {
  switch (call.request.operation) {
    case "updatePet":
      return yield* updatePet(call as PetChangeCall & { request: { operation: "updatePet" } }, now);
    case "deletePet":
      return yield* deletePet(call, now);
    case "restorePet":
      return yield* restorePet(call, now);
  }
}

interface StoredAnswer {
  fingerprint: string;
  status: unknown;
  body: string;
  createdAt: unknown;
}

/**
 * The change, retry-safe with its key (as createPet's, docs/decisions/007): a live record of the key
 * answers (the same request: its first answer again; another: refused), else the change is made and its
 * `2xx` answer recorded in the same transaction. On PostgreSQL an advisory lock on the key, held until
 * commit, tells a second request with the key, on any replica, that the first is still in flight.
 */
function* keyedChange(call: PetChangeCall, now: Date, expiredBefore: Date): SqlWork<PetChangeOutcome> {
  if (!call.idempotency) return yield* change(call, now);
  const { scope, key } = call.idempotency;
  if ((yield* provider()) === "postgresql") {
    const [lock] = yield* rows<{ acquired: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(${idempotencyLockId(scope, key)}::bigint) AS "acquired"`,
    );
    if (!lock?.acquired) return { kind: "in-flight" };
  }
  const fingerprint = changeFingerprint(call.request);
  const record = yield* firstRow<StoredAnswer>(
    sql`SELECT "fingerprint", "status", "body", "createdAt" FROM "IdempotencyRecord" WHERE "scope" = ${scope} AND "key" = ${key}`,
  );
  if (record && toDate(record.createdAt) >= expiredBefore) {
    if (record.fingerprint !== fingerprint) return { kind: "reused" };
    const status = toNumber(record.status) === 204 ? 204 : 200;
    return { kind: "done", status, pet: status === 200 ? (JSON.parse(record.body) as Pet) : undefined, replayed: true };
  }
  if (record) yield* execute(sql`DELETE FROM "IdempotencyRecord" WHERE "scope" = ${scope} AND "key" = ${key}`);
  const outcome = yield* change(call, now);
  if (outcome.kind === "done") {
    yield* execute(
      sql`INSERT INTO "IdempotencyRecord" ("scope", "key", "fingerprint", "status", "body", "location", "createdAt")
          VALUES (${scope}, ${key}, ${fingerprint}, ${outcome.status}, ${outcome.pet ? JSON.stringify(outcome.pet) : ""}, '', ${now})`,
    );
  }
  return outcome;
}

/** An opaque cursor: base64url of the key the next page starts after. */
export const encodeCursor = (parts: ReadonlyArray<string | number>): string =>
  Buffer.from(parts.join(","), "utf8").toString("base64url");

/** The parts of a cursor, or undefined when it is not one this API wrote. */
export function decodeCursor(cursor: string, shape: "id" | "time-id"): Array<string | number> | undefined {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split(",");
  const id = Number(parts.at(-1));
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  if (shape === "id") return parts.length === 1 ? [id] : undefined;
  if (parts.length !== 2 || Number.isNaN(Date.parse(parts[0]!))) return undefined;
  return [parts[0]!, id];
}

export interface HistoryPage {
  /** Up to `take` entries, newest first. */
  entries: PetChange[];
  /** The cursor of the page after, when the page was full. */
  next: string | undefined;
}

export interface DeletedPetsPage {
  entries: DeletedPet[];
  next: string | undefined;
}

interface HistoryRow {
  id: unknown;
  at: unknown;
  action: string;
  actorKeyId: string | null;
  actorStaffId: unknown;
  actorName: string;
  targetLabel: string;
  changes: string | null;
}

/** The actors that are no one: the operator command and the retention job. */
const SYSTEM_KEY_IDS = new Set(["operator", "retention"]);

function toPetChange(row: HistoryRow, showNames: boolean): PetChange {
  const kind =
    row.actorStaffId !== null && row.actorStaffId !== undefined
      ? "staff"
      : SYSTEM_KEY_IDS.has(row.actorKeyId ?? "")
        ? "system"
        : "key";
  // A pet created before the history existed: its first name is what the log kept.
  const changes: PetFieldChange[] =
    row.changes !== null
      ? (JSON.parse(row.changes) as PetFieldChange[])
      : row.action === "pet.created"
        ? [{ field: "name", from: null, to: row.targetLabel }]
        : [];
  return {
    at: toDate(row.at).toISOString(),
    action: row.action as PetChangeAction,
    by: { kind, name: showNames ? row.actorName : null },
    changes,
  };
}

export interface PetChangesOptions {
  /** How long an `Idempotency-Key` is remembered. */
  idempotencyTtlMs: number;
  /** How long a deleted pet is kept before the purge (DELETED_PET_DAYS). */
  deletedPetMs: number;
  now?: () => Date;
  /**
   * An updatePet without an Idempotency-Key on statements of the provider's own (SQLite's hand-written
   * path: PetRepository.updateUnkeyed), in place of the unit of work below.
   */
  unkeyedUpdate?: UnkeyedUpdate | undefined;
}

export interface PetChanges {
  change(call: PetChangeCall): Promise<PetChangeOutcome>;
  /** The latest deletions first; `showNames` false (a caller below `write`) hides who deleted. `after`: a cursor decodeCursor reads. */
  listDeleted(query: { take: number; after: string | undefined; showNames: boolean }): Promise<DeletedPetsPage>;
  /** A pet's history, newest first; undefined when no pet, deleted or not, ever had the id. `after`: a cursor decodeCursor reads. */
  history(
    petId: number,
    query: { take: number; after: string | undefined; showNames: boolean },
  ): Promise<HistoryPage | undefined>;
}

const HISTORY_ACTIONS = sql`('pet.created', 'pet.updated', 'pet.deleted', 'pet.restored')`;

export function createPetChanges(
  runner: SqlRunner,
  { idempotencyTtlMs, deletedPetMs, now = () => new Date(), unkeyedUpdate }: PetChangesOptions,
): PetChanges {
  return {
    change(call) {
      const at = now();
      if (unkeyedUpdate && call.request.operation === "updatePet" && !call.idempotency)
        return unkeyedUpdate(call as PetChangeCall & { request: { operation: "updatePet" } }, at);
      return runner.write(() => keyedChange(call, at, new Date(at.getTime() - idempotencyTtlMs)));
    },

    listDeleted({ take, after, showNames }) {
      const cursor = after === undefined ? undefined : decodeCursor(after, "time-id");
      return runner.read(function* () {
        const page = yield* rows<PetRow & { deletedAt: unknown; deletedBy: string }>(
          sql`SELECT ${PET_COLUMNS}, "deletedAt", "deletedBy" FROM "DeletedPet"
              ${cursor ? sql`WHERE ("deletedAt", "id") < (${new Date(cursor[0]!)}, ${cursor[1]})` : sql``}
              ORDER BY "deletedAt" DESC, "id" DESC LIMIT ${take + 1}`,
        );
        const entries = page.slice(0, take).map((row): DeletedPet => {
          const deletedAt = toDate(row.deletedAt);
          return {
            pet: toPet(row),
            deletedAt: deletedAt.toISOString(),
            deletedBy: showNames ? row.deletedBy : null,
            purgeAt: new Date(deletedAt.getTime() + deletedPetMs).toISOString(),
          };
        });
        const last = entries.at(-1);
        return { entries, next: page.length > take && last ? encodeCursor([last.deletedAt, last.pet.id]) : undefined };
      });
    },

    history(petId, { take, after, showNames }) {
      const cursor = after === undefined ? undefined : decodeCursor(after, "id");
      return runner.read(function* () {
        const page = yield* rows<HistoryRow>(
          sql`SELECT "id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetLabel", "changes" FROM "AuditEvent"
              WHERE "targetType" = 'pet' AND "targetId" = ${petId} AND "action" IN ${HISTORY_ACTIONS}
              ${cursor ? sql`AND "id" < ${cursor[0]}` : sql``}
              ORDER BY "id" DESC LIMIT ${take + 1}`,
        );
        if (page.length === 0 && !cursor) {
          const known = yield* firstRow(
            sql`SELECT 1 AS "known" FROM "Pet" WHERE "id" = ${petId} UNION ALL SELECT 1 FROM "DeletedPet" WHERE "id" = ${petId}`,
          );
          if (!known) return undefined;
        }
        const entries = page.slice(0, take).map((row) => toPetChange(row, showNames));
        const last = page[take - 1];
        return { entries, next: page.length > take && last ? encodeCursor([toNumber(last.id)]) : undefined };
      });
    },
  };
}

/** Who purges a deleted pet: the retention job, as the activity log names it. */
export const RETENTION_CONTEXT: AuditContext = {
  actor: { keyId: "retention", staffId: null, name: "Retention" },
  requestId: null,
  clientAddress: null,
};

/**
 * One batch of the purge of deleted pets (maintenance/retention.ts): at most `limit` pets deleted before
 * `deletedBefore`, oldest first, each gone for good with a `pet.purged` event; their history stays.
 */
export function* purgeDeletedPets(
  deletedBefore: Date,
  limit: number,
  now: Date,
): SqlWork<{ deleted: number; more: boolean }> {
  const old = yield* rows<{ id: unknown; name: string }>(
    sql`SELECT "id", "name" FROM "DeletedPet" WHERE "deletedAt" < ${deletedBefore} ORDER BY "deletedAt", "id" LIMIT ${limit}`,
  );
  for (const { id, name } of old) {
    yield* recordActivity(now, "pet.purged", { type: "pet", id: toNumber(id), label: name }, RETENTION_CONTEXT);
    yield* execute(sql`DELETE FROM "DeletedPet" WHERE "id" = ${toNumber(id)}`);
  }
  return { deleted: old.length, more: old.length === limit };
}
