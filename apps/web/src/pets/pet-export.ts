import { LIMIT_MAX, ListPetsQuery, type ListPetsQueryInput, type Pet } from "@petstore/contract";
import { BYTE_ORDER_MARK, encodeCsv, guardFormula } from "./csv.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { parseRetryAfter } from "../api/rate-limit-headers.js";

/** The exported file's columns: the import reads the same names and ignores `id`. */
export const EXPORT_HEADER = ["id", "name", "categoryId", "status"] as const;

/**
 * The export file: UTF-8 with a byte order mark (so spreadsheets read it as
 * UTF-8), CRLF line ends, RFC 4180 quoting, an empty field for no status, and
 * every formula-like cell guarded with a quote (csv.ts).
 */
export function petsToCsv(pets: readonly Pet[]): string {
  const rows = pets.map((pet) =>
    [String(pet.id), pet.name, String(pet.categoryId), pet.status ?? ""].map(guardFormula),
  );
  return BYTE_ORDER_MARK + encodeCsv([[...EXPORT_HEADER], ...rows]);
}

/** `pets-YYYY-MM-DD.csv`, the UTC date of `now`. */
export function exportFileName(now: Date): string {
  return `pets-${now.toISOString().slice(0, 10)}.csv`;
}

/** What one listPets request answered: the status, the pets on a 200, and the headers (`Link`, `Retry-After`). */
export interface ListPetsPage {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface CollectOptions {
  /** The filters of the list being exported (`limit` and `after` are the export's own). */
  filters: Pick<ListPetsQueryInput, "status" | "name" | "categoryId">;
  fetchPage: (query: ListPetsQueryInput, signal: AbortSignal) => Promise<ListPetsPage>;
  signal: AbortSignal;
  /** Told the number of pets collected so far, after every page. */
  onProgress?: (collected: number) => void;
  /** Waits `ms` unless aborted first (replaceable in tests). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The longest pause a `Retry-After` gets: a limit is per minute. */
const MAX_RETRY_AFTER_S = 60;

/** Thrown when an export page is refused with anything but a 200 or a 429. */
export class ExportFailedError extends Error {
  constructor(readonly status: number) {
    super(`The export stopped: the API answered ${status}.`);
    this.name = "ExportFailedError";
  }
}

/**
 * Every pet the filters match, page by page (`limit` 100, following the API's
 * `Link rel="next"`). A 429 waits its `Retry-After` seconds and asks again.
 * Aborting `signal` stops between pages, or cuts a wait or a request short, and
 * rejects with the signal's reason.
 */
export async function collectPets({
  filters,
  fetchPage,
  signal,
  onProgress,
  wait = abortableWait,
}: CollectOptions): Promise<Pet[]> {
  const pets: Pet[] = [];
  let after: number | undefined;
  for (;;) {
    signal.throwIfAborted();
    const query: ListPetsQueryInput = { ...filters, limit: LIMIT_MAX, ...(after !== undefined ? { after } : {}) };
    const page = await fetchPage(query, signal);
    signal.throwIfAborted();
    if (page.status === 429) {
      await wait(retryAfterMs(page.headers.get("retry-after")), signal);
      continue;
    }
    if (page.status !== 200) throw new ExportFailedError(page.status);
    pets.push(...(page.body as Pet[]));
    onProgress?.(pets.length);
    after = nextPageCursor(page.headers.get("link"), ListPetsQuery.innerType().shape.after);
    if (after === undefined) return pets;
  }
}

/** `Retry-After` in seconds (RFC 9110: delay-seconds, or an HTTP date), as milliseconds; 1 s when absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  const seconds = parseRetryAfter(header, now);
  if (seconds === undefined || !Number.isFinite(seconds)) return 1_000;
  return Math.round(Math.min(MAX_RETRY_AFTER_S, Math.max(0, seconds)) * 1000);
}

function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Hands the text to the browser as a download named `fileName`. */
export function saveTextFile(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
