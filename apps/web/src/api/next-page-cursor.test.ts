import { ListAuditEventsQuery, ListPetsQuery } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { nextPageCursor as nextPageCursorOf, previousPageCursor } from "./next-page-cursor.js";

const PET_QUERY = ListPetsQuery.innerType().shape;
const nextPageCursor = (header: string | null) => nextPageCursorOf(header, PET_QUERY.after);

describe("nextPageCursor", () => {
  it("reads `after` from the API's next link", () => {
    expect(nextPageCursor('</v1/pets?limit=20&status=sold&after=23>; rel="next"')).toBe(23);
  });

  it("picks the next link among several and accepts rel lists and unquoted rel", () => {
    const header = '</v1/pets>; rel="successor-version", </v1/pets?after=40&limit=20>; rel=next';
    expect(nextPageCursor(header)).toBe(40);
    expect(nextPageCursor('</v1/pets?after=7>; rel="prefetch next"')).toBe(7);
  });

  it("is undefined on the last page or for a cursor the contract would refuse", () => {
    expect(nextPageCursor(null)).toBeUndefined();
    expect(nextPageCursor('</v1/pets>; rel="successor-version"')).toBeUndefined();
    expect(nextPageCursor('</v1/pets?after=7.5>; rel="next"')).toBeUndefined();
  });

  it("checks the cursor with the operation's own schema", () => {
    expect(
      nextPageCursorOf('</admin/v1/audit-events?limit=20&after=12>; rel="next"', ListAuditEventsQuery.shape.after),
    ).toBe(12);
    // Pets page from id 0; audit events never do.
    expect(nextPageCursorOf('</v1/pets?after=0>; rel="next"', PET_QUERY.after)).toBe(0);
    expect(
      nextPageCursorOf('</admin/v1/audit-events?after=0>; rel="next"', ListAuditEventsQuery.shape.after),
    ).toBeUndefined();
  });
});

describe("previousPageCursor", () => {
  it("reads `before` from the API's prev link, beside its next link", () => {
    const header =
      '</v1/pets?limit=20&categoryId=1&before=41>; rel="prev", </v1/pets?limit=20&categoryId=1&after=60>; rel="next"';
    expect(previousPageCursor(header, PET_QUERY.before)).toBe(41);
    expect(nextPageCursor(header)).toBe(60);
  });

  it("is undefined on the first page or for a cursor the contract would refuse", () => {
    expect(previousPageCursor('</v1/pets?after=60>; rel="next"', PET_QUERY.before)).toBeUndefined();
    expect(previousPageCursor(null, PET_QUERY.before)).toBeUndefined();
    expect(previousPageCursor('</v1/pets?before=0>; rel="prev"', PET_QUERY.before)).toBeUndefined();
  });
});
