import { createHash } from "node:crypto";
import type { Pool, QueryResultRow } from "pg";

/** A statement with `$1`-style placeholders and its values: what Prisma's `Prisma.sql` builds (`.text`, `.values`). */
export interface PostgresStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Runs one statement on the pool and answers its rows. */
export type PreparedQuery = <Row extends QueryResultRow>(statement: PostgresStatement) => Promise<Row[]>;

/**
 * Distinct statement texts given names. The hot path's statements are a handful of fixed
 * templates; a text built with a value in it would be a new statement every call, so past
 * this many the rest run unnamed (planned each time, as Prisma's adapter runs every query)
 * rather than filling every connection with statements used once.
 */
export const MAX_NAMED_STATEMENTS = 64;

/**
 * Runs statements on node-postgres as named prepared statements (docs/decisions/056-prepared-statements-on-postgresql.md).
 * Prisma's pg adapter sends every query unnamed, so PostgreSQL parses and plans it on every call:
 * for createPet's one statement (the pet, its activity row and its event, as a `WITH` query) the
 * plan cost PostgreSQL about as much as the writes. A named statement is parsed and planned once per
 * connection (node-postgres remembers which connection has which); PostgreSQL replans it by itself
 * after a migration changes a table it reads.
 *
 * The name is a digest of the text, so one name never stands for two texts, on any connection.
 */
export function createPreparedQuery(pool: Pool): PreparedQuery {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known;
    const name = `petstore_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
    return name;
  };
  return async <Row extends QueryResultRow>({ text, values }: PostgresStatement) => {
    const result = await pool.query<Row>({ name: nameOf(text), text, values: values as unknown[] });
    return result.rows;
  };
}
