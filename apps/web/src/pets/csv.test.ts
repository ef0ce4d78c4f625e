import { describe, expect, it } from "vitest";
import { CsvSyntaxError, encodeCsv, encodeCsvField, guardFormula, parseCsv, unguardFormula } from "./csv.js";

const fieldsOf = (text: string) => parseCsv(text).map((record) => record.fields);

describe("parseCsv", () => {
  it("splits records on LF, CRLF and CR, with or without a final line break", () => {
    expect(fieldsOf("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a,b\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a,b\r1,2\r")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("reads quoted fields holding commas, doubled quotes and line breaks", () => {
    expect(fieldsOf('name,note\n"Rex, the dog","say ""woof""\r\ntwice"\n')).toEqual([
      ["name", "note"],
      ["Rex, the dog", 'say "woof"\r\ntwice'],
    ]);
    expect(fieldsOf('"",x,""')).toEqual([["", "x", ""]]);
  });

  it("keeps empty fields, and skips blank lines", () => {
    expect(fieldsOf("a,,c\n\n\r\n,\n")).toEqual([
      ["a", "", "c"],
      ["", ""],
    ]);
    expect(fieldsOf("")).toEqual([]);
    expect(fieldsOf("\n\n")).toEqual([]);
  });

  it("numbers each record by the line it starts on, counting blank lines and breaks inside quotes", () => {
    const records = parseCsv('h\n\nfirst\n"two\nlines"\r\nlast');
    expect(records.map((record) => record.line)).toEqual([1, 3, 4, 6]);
  });

  it("drops a byte order mark, and keeps stray quotes inside unquoted text", () => {
    expect(fieldsOf('\uFEFFname\nO"Brien')).toEqual([["name"], ['O"Brien']]);
  });

  it("names the line of a quoted field that is never closed", () => {
    expect(() => parseCsv('a\n"open,1\n2')).toThrow(new CsvSyntaxError("Line 2: a quoted field is never closed.", 2));
  });
});

describe("encodeCsv", () => {
  it("quotes a field only when it holds a comma, a quote or a line break, and ends every record with CRLF", () => {
    expect(encodeCsvField("Rex")).toBe("Rex");
    expect(encodeCsvField("")).toBe("");
    expect(encodeCsvField("a,b")).toBe('"a,b"');
    expect(encodeCsvField('say "hi"')).toBe('"say ""hi"""');
    expect(encodeCsvField("two\nlines")).toBe('"two\nlines"');
    expect(
      encodeCsv([
        ["a", "b"],
        ["", "c,d"],
      ]),
    ).toBe('a,b\r\n,"c,d"\r\n');
  });

  it("reads back as written", () => {
    const records = [
      ["id", "name"],
      ["1", 'Mr "Whiskers", Jr'],
      ["2", "two\r\nlines"],
      ["3", ""],
    ];
    expect(parseCsv(encodeCsv(records)).map((record) => record.fields)).toEqual(records);
  });
});

describe("guardFormula / unguardFormula", () => {
  it("puts one more quote in front of a cell starting with = + - @, or quotes then one of those", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "'=1", "''+x", "'@"].map(guardFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "''=1",
      "'''+x",
      "''@",
    ]);
  });

  it("leaves every other cell alone", () => {
    for (const value of ["Rex", "", "'", "'hello", "1=1", " =x", "''", "a-b"])
      expect(guardFormula(value), value).toBe(value);
  });

  it("removes exactly the one quote the guard added: guard then unguard is the identity", () => {
    for (const value of ["=1", "'=1", "''=1", "-", "'", "'hello", "''", "Rex", "@x", "'@x"]) {
      expect(unguardFormula(guardFormula(value)), value).toBe(value);
    }
    expect(unguardFormula("'hello")).toBe("'hello");
    expect(unguardFormula("'=1")).toBe("=1");
  });
});
