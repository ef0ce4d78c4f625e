import type { NewPet, Pet, PetStatus } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";
import type { UnkeyedUpdate } from "./pet-change-types.js";

export interface PetPageQuery {
  /** Rows to return at most. */
  take: number;
  status?: PetStatus | undefined;
  /** Only pets with an id greater than this. */
  after?: number | undefined;
}

/** What a keyed create stores in one transaction: the pet and its idempotency record (see idempotent-create.ts). */
export interface KeyedPetInsert {
  /** The caller (`configured-N`, `key-<id>`; never a key or its digest): the same key string from two clients names two creates. */
  scope: string;
  key: string;
  /** SHA-256 hex digest of the validated body. */
  fingerprint: string;
  pet: NewPet;
  /** The `Location` answered for the created pet, remembered for replays. */
  locationOf: (pet: Pet) => string;
  /** Recorded as the record's creation time. */
  now: Date;
  /** A record created before this has expired: its key is free again. */
  expiredBefore: Date;
  /** Who creates it: a `pet.created` event is written with the pet (not on a replay). */
  audit?: AuditContext | undefined;
}

export type KeyedCreateOutcome =
  | { kind: "created"; pet: Pet; location: string }
  /** The key was used with the same body: the first answer, again. */
  | { kind: "replayed"; pet: Pet; location: string }
  /** The key was used with another body. */
  | { kind: "reused" }
  /** Another create with this key has not committed yet. */
  | { kind: "in-flight" };

/** Storage of pets, in ascending id order. Implemented per database. */
export interface PetRepository {
  list(query: PetPageQuery): Promise<Pet[]>;
  /** With `audit`, the pet's `pet.created` event is written in the same transaction. */
  create(pet: NewPet, audit?: AuditContext): Promise<Pet>;
  /** Creates the pet and its idempotency record in one transaction, or answers from the live record. */
  createIdempotent(request: KeyedPetInsert): Promise<KeyedCreateOutcome>;
  /**
   * Computes the search key of every pet stored without one (before the key
   * existed, with a name SQL could not fold); returns how many. Run at start-up.
   */
  fillMissingNameKeys(): Promise<number>;
  /** Deletes idempotency records created before `expiredBefore`; returns how many. */
  deleteIdempotencyRecordsBefore(expiredBefore: Date): Promise<number>;
  findById(id: number): Promise<Pet | null>;
  /**
   * SQLite only: updatePet without an Idempotency-Key on prepared statements, committed with the other
   * writes of its turn (decision 057). Absent on PostgreSQL, where pet-changes.ts's unit of work runs it.
   */
  updateUnkeyed?: UnkeyedUpdate;
}
