import type { ListPetsQueryInput, Pet } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.js";
import {
  collectPets,
  ExportFailedError,
  exportFileName,
  petsToCsv,
  retryAfterMs,
  type ListPetsPage,
} from "./pet-export.js";
import { checkImport } from "./pet-import.js";

const PETS: Pet[] = [
  { id: 1, name: "Rex", categoryId: 2, status: "available" },
  { id: 2, name: 'Mr "Whiskers", Jr', categoryId: 1 },
  { id: 3, name: '=HYPERLINK("http://x")', categoryId: 9007199254740991, status: "sold" },
  { id: 4, name: "Émile 🐕", categoryId: 3, status: "pending" },
];

describe("petsToCsv", () => {
  it("writes a BOM, the header, CRLF line ends, RFC 4180 quoting, an empty status, and guards formulas", () => {
    expect(petsToCsv(PETS)).toBe(
      "\uFEFFid,name,categoryId,status\r\n" +
        "1,Rex,2,available\r\n" +
        '2,"Mr ""Whiskers"", Jr",1,\r\n' +
        '3,"\'=HYPERLINK(""http://x"")",9007199254740991,sold\r\n' +
        "4,Émile 🐕,3,pending\r\n",
    );
  });

  it("reads back with the CSV reader, and imports as the same pets (the id column ignored)", () => {
    const text = petsToCsv(PETS);
    expect(parseCsv(text)[0]?.fields).toEqual(["id", "name", "categoryId", "status"]);
    const checked = checkImport(text);
    expect(checked.ok && checked.rows.map((row) => row.result)).toEqual(
      PETS.map(({ id: _id, ...pet }) => ({ ok: true, pet })),
    );
  });

  it("is just the header for no pets", () => {
    expect(petsToCsv([])).toBe("\uFEFFid,name,categoryId,status\r\n");
  });
});

describe("exportFileName", () => {
  it("is pets-YYYY-MM-DD.csv on the UTC date", () => {
    expect(exportFileName(new Date("2026-03-04T23:30:00-05:00"))).toBe("pets-2026-03-05.csv");
  });
});

describe("retryAfterMs", () => {
  it("reads seconds or an HTTP date, bounded to a minute, 1 s when absent or unreadable", () => {
    expect(retryAfterMs("3")).toBe(3_000);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("3600")).toBe(60_000);
    expect(retryAfterMs(null)).toBe(1_000);
    expect(retryAfterMs("soon")).toBe(1_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
  });
});

/** A listPets API of `count` pets, 100 a page, that can answer 429 first. */
function fakeApi(count: number, refusals: number[] = []) {
  const requests: ListPetsQueryInput[] = [];
  const fetchPage = async (query: ListPetsQueryInput): Promise<ListPetsPage> => {
    requests.push(query);
    if (refusals.length > 0 && requests.length === refusals[0]) {
      refusals.shift();
      return { status: 429, body: {}, headers: new Headers({ "retry-after": "2" }) };
    }
    const after = Number(query.after ?? 0);
    const ids = Array.from({ length: count }, (_, i) => i + 1)
      .filter((id) => id > after)
      .slice(0, Number(query.limit));
    const more = ids.length > 0 && ids.at(-1)! < count;
    const headers = new Headers(more ? { link: `</v1/pets?limit=100&after=${ids.at(-1)}>; rel="next"` } : {});
    return { status: 200, body: ids.map((id) => ({ id, name: `pet ${id}`, categoryId: 1 })), headers };
  };
  return { requests, fetchPage };
}

describe("collectPets", () => {
  it("follows the next links, 100 a page, with the view's filters, to every pet", async () => {
    const api = fakeApi(250);
    const progress: number[] = [];
    const pets = await collectPets({
      filters: { status: "sold", name: "pe" },
      fetchPage: api.fetchPage,
      signal: new AbortController().signal,
      onProgress: (n) => progress.push(n),
    });
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(api.requests).toEqual([
      { status: "sold", name: "pe", limit: 100 },
      { status: "sold", name: "pe", limit: 100, after: 100 },
      { status: "sold", name: "pe", limit: 100, after: 200 },
    ]);
    expect(progress).toEqual([100, 200, 250]);
  });

  it("waits Retry-After on a 429 and asks for the same page again", async () => {
    const api = fakeApi(150, [2]);
    const waits: number[] = [];
    const pets = await collectPets({
      filters: {},
      fetchPage: api.fetchPage,
      signal: new AbortController().signal,
      wait: async (ms) => void waits.push(ms),
    });
    expect(pets).toHaveLength(150);
    expect(waits).toEqual([2_000]);
    expect(api.requests.map((query) => query.after)).toEqual([undefined, 100, 100]);
  });

  it("stops at once when cancelled, during a wait too", async () => {
    const api = fakeApi(1_000, [2]);
    const controller = new AbortController();
    const collecting = collectPets({
      filters: {},
      fetchPage: api.fetchPage,
      signal: controller.signal,
      wait: (_ms, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new DOMException("cancelled", "AbortError"));
    await expect(collecting).rejects.toThrow("cancelled");
    expect(api.requests).toHaveLength(2);
  });

  it("fails on any other answer", async () => {
    await expect(
      collectPets({
        filters: {},
        fetchPage: async () => ({ status: 503, body: {}, headers: new Headers() }),
        signal: new AbortController().signal,
      }),
    ).rejects.toEqual(new ExportFailedError(503));
  });
});
