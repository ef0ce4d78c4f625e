import type Sqlite from "better-sqlite3";
import type { DatabaseProvider } from "../base/database-url.js";
import { groupCommit } from "./sqlite-group-commit.js";
import { sqliteTimestamp } from "./sqlite-timestamp.js";

/**
 * Storage written once for both providers, off the hot path (docs/decisions/040-storage-written-once-off-the-hot-path.md).
 *
 * A repository method is a generator of `SqlWork`: it yields statements (`rows`, `firstRow`, `execute`, or
 * an extension such as the activity log's writer) and gets their results back. A `SqlRunner` drives it:
 * - on SQLite, synchronously, on the API's one connection, inside one `BEGIN IMMEDIATE` transaction
 *   (better-sqlite3's `.immediate`): nothing else runs on the connection between its statements, as
 *   with the hand-written pet path, and no await ever sits inside a transaction;
 * - on PostgreSQL, asynchronously, inside one Prisma interactive transaction, each statement a raw query.
 *
 * The SQL is the subset both providers read alike: double-quoted identifiers, `RETURNING`,
 * `ON CONFLICT`. Parameters are `sql` template values, never spliced text. Where the two differ, a
 * statement asks the runner (`provider`, `forUpdate`). Values go in as JavaScript values (a Date, a
 * boolean, a number) and come back as each driver reads them: read a row through `toDate`, `toNumber`
 * and `toBoolean`.
 */

/** A statement: its text around the parameters, and the parameters. */
export interface SqlStatement {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

/** Text spliced into a statement as it is: only constants of the code, never a caller's value. */
export class SqlText {
  constructor(readonly text: string) {}
}

/** A statement; a value that is a `SqlStatement` or `SqlText` is spliced in, anything else is a parameter. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlStatement {
  const parts: string[] = [strings[0]!];
  const parameters: unknown[] = [];
  const append = (text: string) => (parts[parts.length - 1] += text);
  values.forEach((value, index) => {
    const after = strings[index + 1]!;
    if (value instanceof SqlText) {
      append(value.text + after);
    } else if (isStatement(value)) {
      append(value.strings[0]!);
      for (let i = 0; i < value.values.length; i++) {
        parameters.push(value.values[i]);
        parts.push(value.strings[i + 1]!);
      }
      append(after);
    } else {
      parameters.push(value);
      parts.push(after);
    }
  });
  return { strings: parts, values: parameters };
}

/** Constant text of the code (a column list), spliced as it is. */
export const raw = (text: string) => new SqlText(text);

/** Statements joined by `separator` (`AND`, `, `). */
export function joinSql(statements: readonly SqlStatement[], separator: string): SqlStatement {
  return (
    statements.reduce<SqlStatement | undefined>(
      (joined, next) => (joined ? sql`${joined}${raw(separator)}${next}` : next),
      undefined,
    ) ?? sql``
  );
}

const isStatement = (value: unknown): value is SqlStatement =>
  typeof value === "object" &&
  value !== null &&
  Array.isArray((value as SqlStatement).strings) &&
  Array.isArray((value as SqlStatement).values);

/** What a unit of work yields: a statement to run, or an extension the runner was given (the activity writer). */
export type SqlStep =
  | { readonly kind: "rows"; readonly statement: SqlStatement }
  | { readonly kind: "execute"; readonly statement: SqlStatement }
  | { readonly kind: "provider" }
  | { readonly kind: "extension"; readonly name: string; readonly args: readonly unknown[] };

/** A unit of work: a generator of steps, returning `T`. */
export type SqlWork<T> = Generator<SqlStep, T, unknown>;

/** The rows a statement answers (each driver's own values: read them with `toDate`, `toNumber`, `toBoolean`). */
export function* rows<Row>(statement: SqlStatement): SqlWork<Row[]> {
  return (yield { kind: "rows", statement }) as Row[];
}

/** The first row a statement answers, or undefined. */
export function* firstRow<Row>(statement: SqlStatement): SqlWork<Row | undefined> {
  return ((yield { kind: "rows", statement }) as Row[])[0];
}

/** Runs a statement; answers how many rows it changed. */
export function* execute(statement: SqlStatement): SqlWork<number> {
  return (yield { kind: "execute", statement }) as number;
}

/** Which provider runs this work, for the rare statement the two cannot share. */
export function* provider(): SqlWork<DatabaseProvider> {
  return (yield { kind: "provider" }) as DatabaseProvider;
}

/**
 * `FOR UPDATE` on PostgreSQL (locks the rows read until the transaction ends); nothing on SQLite, whose
 * `BEGIN IMMEDIATE` holds the database's write lock for the whole transaction already.
 */
export function* forUpdate(): SqlWork<SqlText> {
  return raw((yield* provider()) === "postgresql" ? " FOR UPDATE" : "");
}

/** A step the runner hands to the extension of that name it was given (how the activity writer joins in). */
export function* extension(name: string, args: readonly unknown[]): SqlWork<unknown> {
  return yield { kind: "extension", name, args };
}

/** A driver value as a Date (SQLite: ISO 8601 text; PostgreSQL: a Date). */
export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
export const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);
/** A driver integer as a number (PostgreSQL's int8 comes back a bigint; ids stay below 2^53). */
export const toNumber = (value: unknown): number => Number(value);
export const toNumberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
/** A driver boolean (SQLite: 0 or 1). */
export const toBoolean = (value: unknown): boolean => value === true || value === 1 || value === 1n;

/** Runs units of work on one provider. */
export interface SqlRunner {
  readonly provider: DatabaseProvider;
  /** In one transaction: all of it commits, or none (a throw rolls it back and rejects). */
  transaction<T>(work: () => SqlWork<T>): Promise<T>;
  /** Reads that need no lock: on SQLite a deferred transaction (one snapshot), on PostgreSQL no transaction. */
  read<T>(work: () => SqlWork<T>): Promise<T>;
  /**
   * A short write on a request's path, as `transaction`; on SQLite committed together with the other
   * writes queued in the same turn of the event loop (groupCommit: one fsync for all, each in its own
   * savepoint), as createPet's are.
   */
  write<T>(work: () => SqlWork<T>): Promise<T>;
}

/**
 * Drives a unit of work with `step`: each step's result goes back in, and a step's error is thrown
 * into the work at the `yield` (its `finally` runs; on PostgreSQL the transaction is aborted then).
 */
function driveSync<T>(work: SqlWork<T>, step: (next: SqlStep) => unknown): T {
  let next = work.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = step(next.value);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(result);
  }
  return next.value;
}

async function driveAsync<T>(work: SqlWork<T>, step: (next: SqlStep) => Promise<unknown>): Promise<T> {
  let next = work.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = await step(next.value);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(result);
  }
  return next.value;
}

/** The provider-specific side of an extension, called with the transaction's own handle. */
export type SqlExtension<Handle> = (handle: Handle, args: readonly unknown[]) => unknown;

/** A SQLite value as the schema stores it: timestamps as Prisma writes them, booleans as 0 and 1. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return sqliteTimestamp(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * The runner on the API's SQLite connection: each unit of work runs to its end synchronously, inside
 * `BEGIN IMMEDIATE`, with statements prepared once per text.
 */
export function sqliteRunner(
  db: Sqlite.Database,
  extensions: Readonly<Record<string, SqlExtension<Sqlite.Database>>> = {},
): SqlRunner {
  const statements = new Map<string, Sqlite.Statement>();
  const prepare = (statement: SqlStatement) => {
    const text = statement.strings.join("?");
    let prepared = statements.get(text);
    if (!prepared) statements.set(text, (prepared = db.prepare(text)));
    return prepared;
  };
  const step = (next: SqlStep): unknown => {
    switch (next.kind) {
      case "rows": {
        const statement = prepare(next.statement);
        const values = next.statement.values.map(sqliteValue);
        return statement.reader ? statement.all(...values) : (statement.run(...values), []);
      }
      case "execute":
        return prepare(next.statement).run(...next.statement.values.map(sqliteValue)).changes;
      case "provider":
        return "sqlite";
      case "extension":
        return extensionOf(extensions, next.name)(db, next.args);
    }
  };
  const inTransaction = db.transaction((work: SqlWork<unknown>) => driveSync(work, step));
  const together = groupCommit(db, (work: SqlWork<unknown>) => driveSync(work, step));
  return {
    provider: "sqlite",
    async transaction(work) {
      return inTransaction.immediate(work()) as never;
    },
    write(work) {
      return together(work()) as never;
    },
    async read(work) {
      return inTransaction.deferred(work()) as never;
    },
  };
}

/** The part of a Prisma transaction client the runner uses. */
export interface RawQueries {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Prisma's interactive transaction, as the runner needs it. */
export interface PrismaTransactions<Handle extends RawQueries> extends RawQueries {
  $transaction<T>(work: (tx: Handle) => Promise<T>): Promise<T>;
}

/** The PostgreSQL text of a statement: `$1`, `$2`... for its parameters. */
export const postgresText = (statement: SqlStatement): string =>
  statement.strings.reduce((text, part, index) => (index === 0 ? part : `${text}$${index}${part}`), "");

/** The runner on PostgreSQL: each unit of work in one Prisma interactive transaction, statements as raw queries. */
export function postgresRunner<Handle extends RawQueries>(
  prisma: PrismaTransactions<Handle>,
  extensions: Readonly<Record<string, SqlExtension<Handle>>> = {},
): SqlRunner {
  const step = async (tx: Handle | RawQueries, next: SqlStep): Promise<unknown> => {
    switch (next.kind) {
      case "rows":
        return tx.$queryRawUnsafe(postgresText(next.statement), ...next.statement.values);
      case "execute":
        return tx.$executeRawUnsafe(postgresText(next.statement), ...next.statement.values);
      case "provider":
        return "postgresql";
      case "extension":
        return extensionOf(extensions, next.name)(tx as Handle, next.args);
    }
  };
  return {
    provider: "postgresql",
    transaction(work) {
      return prisma.$transaction((tx) => driveAsync(work(), (next) => step(tx, next)));
    },
    write(work) {
      return prisma.$transaction((tx) => driveAsync(work(), (next) => step(tx, next)));
    },
    read(work) {
      return driveAsync(work(), (next) => step(prisma, next));
    },
  };
}

function extensionOf<Handle>(
  extensions: Readonly<Record<string, SqlExtension<Handle>>>,
  name: string,
): SqlExtension<Handle> {
  const found = extensions[name];
  if (!found) throw new Error(`no SQL extension named ${name}: give it to the runner`);
  return found;
}
