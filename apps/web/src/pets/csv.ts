/**
 * CSV (RFC 4180) both ways, for the bulk import and the export. Reading: fields
 * separated by commas, records by CRLF, LF or CR; a field in double quotes may
 * hold commas, line breaks and doubled quotes (`""`). Blank lines are skipped.
 * Writing: CRLF line ends, a field quoted only when it must be. Plus the
 * formula-injection guard a spreadsheet needs, and its inverse for the import.
 * Small enough to own: nothing else a CSV library offers is needed.
 */

/** The byte order mark the export starts with, so spreadsheets read the file as UTF-8. */
export const BYTE_ORDER_MARK = "\uFEFF";

/**
 * A cell a spreadsheet would run as a formula: starting with `=`, `+`, `-` or
 * `@` (OWASP, CSV injection), or with a quote already in front of one of those
 * (`'=1`), and so on for any run of quotes (`''=1`): a guard is a quote in front,
 * which the spreadsheet shows as text and hides. Any run, not just one, so that
 * removing one guard (the import) exactly undoes adding one (the export).
 */
const FORMULA_LIKE = /^'*[=+\-@]/;

/** A cell as it goes into an exported file: one more `'` in front of a formula-like value. */
export function guardFormula(value: string): string {
  return FORMULA_LIKE.test(value) ? `'${value}` : value;
}

/** A cell as the import reads it: exactly one guard `'` removed from what the export guarded. */
export function unguardFormula(value: string): string {
  return value.startsWith("'") && FORMULA_LIKE.test(value.slice(1)) ? value.slice(1) : value;
}

/** One field, quoted when it holds a comma, a quote or a line break (RFC 4180), its quotes doubled. */
export function encodeCsvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Records as CSV text: fields joined by commas, every record ended by CRLF. */
export function encodeCsv(records: readonly (readonly string[])[]): string {
  return records.map((fields) => `${fields.map(encodeCsvField).join(",")}\r\n`).join("");
}

export interface CsvRecord {
  /** The line of the text the record starts on, from 1: what an editor shows. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

export function parseCsv(text: string): CsvRecord[] {
  // Spreadsheets often save UTF-8 with a byte order mark; it is not part of the first field.
  const input = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  /** Whether the current record has anything in it, so a blank line can be told from one empty field. */
  let started = false;
  let line = 1;
  let recordLine = 1;

  const endField = () => {
    fields.push(field);
    field = "";
  };
  const endRecord = () => {
    if (started) {
      endField();
      records.push({ line: recordLine, fields });
    }
    fields = [];
    field = "";
    started = false;
  };

  for (let index = 0; index < input.length; index++) {
    const char = input[index];
    if (char === '"' && field === "") {
      // A quoted field: read to its closing quote.
      started = true;
      const openedOn = line;
      index++;
      for (;;) {
        if (index >= input.length)
          throw new CsvSyntaxError(`Line ${openedOn}: a quoted field is never closed.`, openedOn);
        const inner = input[index];
        if (inner === '"') {
          if (input[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          break;
        }
        if (inner === "\n" || (inner === "\r" && input[index + 1] !== "\n")) line++;
        field += inner;
        index++;
      }
      continue;
    }
    if (char === ",") {
      started = true;
      endField();
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && input[index + 1] === "\n") index++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      // Lenient, as spreadsheets are: a quote inside an unquoted field, or text after a closing quote, is kept as is.
      started = true;
      field += char;
    }
  }
  endRecord();
  return records;
}
