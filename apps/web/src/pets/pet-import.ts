import type { NewPet } from "@petstore/contract";
import { CsvSyntaxError, parseCsv, unguardFormula } from "./csv.js";
import { fieldErrorsFromSchema } from "../forms/contract-field-errors.js";
import { NEW_PET_FIELD_LABELS, parseNewPetValues, type NewPetFormValues } from "./new-pet-form.js";

/** The columns a bulk import reads, as the contract names them; `status` may be left empty. */
export const IMPORT_COLUMNS = ["name", "categoryId", "status"] as const satisfies readonly (keyof NewPetFormValues)[];
export const IMPORT_HEADER = IMPORT_COLUMNS.join(",");

/** `1 pet`, `2 pets`: a count in the import's words. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** One data row of the CSV after Check: what it said, and what the contract made of it. */
export interface CheckedRow {
  /** The line the row starts on: what staff look for in the text. */
  line: number;
  values: NewPetFormValues;
  /** The pet to send, or the contract's error when it refuses the row. */
  result: { ok: true; pet: NewPet } | { ok: false; error: string };
}

export type CheckedImport = { ok: true; rows: CheckedRow[] } | { ok: false; problem: string };

/** A column of an exported file (pet-export.ts) that the import reads past: the store assigns ids. */
const IGNORED_COLUMNS = ["id"];

const HEADER_PROBLEM = `The first line must be the header ${IMPORT_HEADER}.`;

interface ImportHeader {
  columns: Map<keyof NewPetFormValues, number>;
  /** How many fields every row has. */
  width: number;
}

/** Which field of each record holds which column; the header may list them in any order. */
function readHeader(fields: string[]): ImportHeader | undefined {
  const names = fields.map((field) => field.trim());
  const columns = new Map<keyof NewPetFormValues, number>();
  for (const column of IMPORT_COLUMNS) {
    const index = names.indexOf(column);
    if (index === -1 || names.lastIndexOf(column) !== index) return undefined;
    columns.set(column, index);
  }
  const ignored = IGNORED_COLUMNS.filter((column) => names.includes(column));
  if (ignored.some((column) => names.indexOf(column) !== names.lastIndexOf(column))) return undefined;
  return names.length === IMPORT_COLUMNS.length + ignored.length ? { columns, width: names.length } : undefined;
}

/** The contract's own rules for the row, one problem per field in column order, in the words the New pet form uses. */
function contractError(values: NewPetFormValues): CheckedRow["result"] {
  const parsed = parseNewPetValues(values);
  if (parsed.success) return { ok: true, pet: parsed.data };
  const errors = fieldErrorsFromSchema(parsed.error.issues, NEW_PET_FIELD_LABELS);
  return { ok: false, error: IMPORT_COLUMNS.flatMap((column) => errors[column] ?? []).join("; ") };
}

/** Reads the CSV and checks every row with the contract; sends nothing. */
export function checkImport(text: string): CheckedImport {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problem: error.message };
    throw error;
  }
  const [header, ...data] = records;
  const read = header && readHeader(header.fields);
  if (!read) return { ok: false, problem: HEADER_PROBLEM };
  const { columns, width } = read;
  if (data.length === 0) return { ok: false, problem: "There are no rows under the header." };

  const rows = data.map(({ line, fields }): CheckedRow => {
    // An exported file guards formula-like cells with a quote (csv.ts): exactly one comes off again.
    const field = (column: keyof NewPetFormValues) => unguardFormula(fields[columns.get(column) ?? -1] ?? "");
    const values: NewPetFormValues = {
      name: field("name"),
      categoryId: field("categoryId"),
      status: field("status").trim(),
    };
    if (fields.length !== width) {
      const error = `Has ${countOf(fields.length, "field", "fields")}; the header has ${width}.`;
      return { line, values, result: { ok: false, error } };
    }
    return { line, values, result: contractError(values) };
  });
  return { ok: true, rows };
}

/**
 * Idempotency keys for import rows, kept for as long as the page is open: a
 * row keeps its key through edits elsewhere in the text, a second Check and a
 * second import, so sending it again replays its create instead of adding the
 * pet twice. Identical rows in one CSV are different pets: the second copy
 * gets a key of its own.
 */
export class ImportKeyring {
  private readonly keys = new Map<string, string[]>();

  constructor(private readonly newKey: () => string) {}

  /** One key per pet, in order; `pets` is every valid row of one Check. */
  keysFor(pets: readonly NewPet[]): string[] {
    const seen = new Map<string, number>();
    return pets.map((pet) => {
      const fingerprint = JSON.stringify([pet.name, pet.categoryId, pet.status ?? null]);
      const occurrence = seen.get(fingerprint) ?? 0;
      seen.set(fingerprint, occurrence + 1);
      const keys = this.keys.get(fingerprint) ?? [];
      this.keys.set(fingerprint, keys);
      const key = keys[occurrence] ?? this.newKey();
      keys[occurrence] = key;
      return key;
    });
  }
}

/**
 * Runs `work` on every item with at most `concurrency` in flight, in order of
 * the list. Stops starting new items once `shouldStop` says so (the page was
 * left, or the key was refused); items already in flight finish.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !shouldStop()) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
