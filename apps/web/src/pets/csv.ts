/**
 * A CSV reader (RFC 4180) for the bulk import: fields separated by commas,
 * records by CRLF, LF or CR; a field in double quotes may hold commas, line
 * breaks and doubled quotes (`""`). Blank lines are skipped. Small enough to
 * own: the import needs nothing else a CSV library offers.
 */

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
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
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
        if (index >= input.length) throw new CsvSyntaxError(`Line ${openedOn}: a quoted field is never closed.`, openedOn);
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
