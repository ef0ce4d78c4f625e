/**
 * Retry-safe creates (IETF httpapi Idempotency-Key draft; docs/decisions/007).
 * A create sent with an `Idempotency-Key` is remembered, per API key, for the
 * configured time: the same key with the same body replays the first answer,
 * with another body it is refused, and while the first has not committed a
 * second one is told to retry. The repositories do the storage, in one
 * transaction with the pet; this module holds what both providers share.
 */
import { createHash } from "node:crypto";
import type { NewPet, Pet } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";
import type { KeyedCreateOutcome, PetRepository } from "./pet-repository.js";

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * What identifies a body: the validated pet (name trimmed, unknown fields
 * dropped), as JSON with its keys sorted, so two bodies that create the same
 * pet have the same fingerprint whatever their spelling.
 */
export function fingerprintOf(pet: NewPet): string {
  const canonical = Object.fromEntries(
    Object.entries(pet)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return sha256Hex(JSON.stringify(canonical));
}

/**
 * The PostgreSQL advisory lock that a create with this key holds until it
 * commits: 64 bits of a digest of scope and key (a collision only makes two
 * keys wait on each other).
 */
export function idempotencyLockId(scope: string, key: string): bigint {
  return createHash("sha256").update(`${scope}\n${key}`, "utf8").digest().readBigInt64BE(0);
}

/** The columns of a live record that decide the answer. */
export interface IdempotencyRecordRow {
  fingerprint: string;
  body: string;
  location: string;
}

/** A live record answers a create with its key: a replay when the body is the same, else a refusal. */
export function answerFromRecord(record: IdempotencyRecordRow, fingerprint: string): KeyedCreateOutcome {
  if (record.fingerprint !== fingerprint) return { kind: "reused" };
  return { kind: "replayed", pet: JSON.parse(record.body) as Pet, location: record.location };
}

export interface KeyedCreateServiceOptions {
  pets: PetRepository;
  ttlMs: number;
  /** The clock; tests move it. */
  now?: () => Date;
  /** Expired records are deleted at most this often, after a keyed create. */
  sweepEveryMs?: number;
}

/** A createPet sent with an `Idempotency-Key`, as the router hands it over. */
export interface KeyedCreate {
  scope: string;
  key: string;
  pet: NewPet;
  locationOf: (pet: Pet) => string;
  audit?: AuditContext | undefined;
}

/** Keyed creates: answered once, replayed within the TTL, refused for another body. */
export interface KeyedCreateService {
  create(request: KeyedCreate): Promise<KeyedCreateOutcome>;
  /**
   * Deletes expired records when the last sweep is older than `sweepEveryMs`;
   * resolves to the number deleted, or undefined when no sweep was due. Only
   * keyed creates add records, so sweeping after them bounds the table
   * without a timer to own; an expired record is ignored before it is swept.
   */
  sweepIfDue(): Promise<number> | undefined;
}

export function createKeyedCreateService({
  pets,
  ttlMs,
  now = () => new Date(),
  sweepEveryMs = Math.min(ttlMs, 60_000),
}: KeyedCreateServiceOptions): KeyedCreateService {
  let lastSweep = now().getTime();
  return {
    create({ scope, key, pet, locationOf, audit }) {
      const at = now();
      return pets.createIdempotent({
        scope,
        key,
        fingerprint: fingerprintOf(pet),
        pet,
        locationOf,
        now: at,
        expiredBefore: new Date(at.getTime() - ttlMs),
        audit,
      });
    },
    sweepIfDue() {
      const at = now().getTime();
      if (at - lastSweep < sweepEveryMs) return undefined;
      lastSweep = at;
      return pets.deleteIdempotencyRecordsBefore(new Date(at - ttlMs));
    },
  };
}
