import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakePetStore, postedKeys } from "../test/fake-pet-store.js";
import { deferred, errorResponse, renderAppHook } from "../test/render-app.js";
import { IMPORT_HEADER } from "./pet-import.js";
import { IMPORT_CONCURRENCY, useImportPets } from "./use-import-pets.js";

type Handler = (request: Request) => Promise<Response>;

function renderImport(handler: Handler = fakePetStore().handler) {
  return renderAppHook(useImportPets, "/pets/import", handler);
}

type Hook = ReturnType<typeof renderImport>["result"];

/** Types the CSV and presses Check, as staff would (two renders: Check reads the text typed). */
function checkCsv(result: Hook, ...rows: string[]) {
  act(() => result.current.setText([IMPORT_HEADER, ...rows].join("\n")));
  act(() => result.current.check());
}

async function runToEnd(result: Hook, start: () => void) {
  act(start);
  await waitFor(() => expect(result.current.running).toBe(false));
}

const posts = (requests: Request[]) => requests.filter((request) => request.method === "POST");
const petRows = (count: number) => Array.from({ length: count }, (_, index) => `Pet ${index + 1},1,`);

describe("useImportPets", () => {
  it("checks the text: every row, the accepted ones with a key each, kept for the visit; sends nothing", () => {
    const { result, requests } = renderImport();
    checkCsv(result, "Rex,1,", "Broken,0,", "Rex,1,");
    const checked = result.current.checked;
    expect(checked?.rows.map((row) => row.line)).toEqual([2, 3, 4]);
    expect(checked?.sendable.map((row) => [row.line, row.pet.name])).toEqual([
      [2, "Rex"],
      [4, "Rex"],
    ]);
    const keys = checked?.sendable.map((row) => row.key);
    // The same row twice in one CSV is two pets: two keys.
    expect(new Set(keys).size).toBe(2);
    expect(result.current.problem).toBeNull();
    expect(result.current.progress).toBeNull();

    act(() => result.current.check());
    expect(result.current.checked?.sendable.map((row) => row.key)).toEqual(keys);
    expect(posts(requests)).toEqual([]);
  });

  it("says why text without the header cannot be checked, and drops what the last Check found", () => {
    const { result } = renderImport();
    checkCsv(result, "Rex,1,");
    expect(result.current.checked).not.toBeNull();
    act(() => result.current.setText("Rex,1,\n"));
    act(() => result.current.check());
    expect(result.current.problem).toBe(`The first line must be the header ${IMPORT_HEADER}.`);
    expect(result.current.checked).toBeNull();
  });

  it("reads a chosen file into the text, and says when it cannot", async () => {
    const { result } = renderImport();
    const csv = `${IMPORT_HEADER}\nRex,4,available\n`;
    await act(() => result.current.readFile(new File([csv], "pets.csv", { type: "text/csv" })));
    expect(result.current.text).toBe(csv);
    await act(() => result.current.readFile({ name: "gone.csv" } as File));
    expect(result.current.problem).toBe("gone.csv could not be read.");
    expect(result.current.text).toBe(csv);
  });

  it("sends each accepted row once with its key, at most 4 at a time, counts progress, and announces the end", async () => {
    const store = fakePetStore();
    const { result, requests } = renderImport(store.handler);
    checkCsv(result, ...petRows(10), "Broken,0,");
    act(() => result.current.importChecked());
    expect(result.current.progress).toEqual({ done: 0, total: 10 });
    expect(result.current.running).toBe(true);
    // The last row's progress and the end are two state updates: a busy host can render between them.
    await waitFor(() =>
      expect([result.current.running, result.current.progress]).toEqual([false, { done: 10, total: 10 }]),
    );

    expect(store.mostInFlight).toBe(IMPORT_CONCURRENCY);
    expect((await postedKeys(requests)).sort()).toEqual(result.current.checked?.sendable.map((row) => row.key).sort());
    expect([...result.current.outcomes.values()].every((outcome) => outcome.imported)).toBe(true);
    expect(result.current.failedRows).toEqual([]);
    expect(screen.getByRole("status")).toHaveTextContent("Imported 10 pets.");
  });

  it("keeps the rows that failed, and retryFailed sends only those again, with the keys they were sent with", async () => {
    let networkDown = true;
    const store = fakePetStore((pet) => (pet.name === "Unlucky" && networkDown ? "network down" : undefined));
    const { result, requests } = renderImport(store.handler);
    checkCsv(result, "Lucky,1,", "Unlucky,2,", "Also lucky,3,");
    await runToEnd(result, () => result.current.importChecked());

    expect(result.current.failedRows.map((row) => row.line)).toEqual([3]);
    expect(result.current.outcomes.get(3)).toEqual({
      imported: false,
      error: "The API could not be reached. Check your connection and try again.",
    });
    expect(screen.getByRole("status")).toHaveTextContent("Imported 2 pets. 1 row was not imported.");
    const unluckyKey = result.current.failedRows[0]?.key;

    networkDown = false;
    const sentBefore = posts(requests).length;
    act(() => result.current.retryFailed());
    expect(result.current.progress).toEqual({ done: 0, total: 1 });
    await waitFor(() => expect(result.current.running).toBe(false));

    expect(result.current.failedRows).toEqual([]);
    expect(posts(requests).length).toBe(sentBefore + 1);
    expect(new Set(await postedKeys(requests, "Unlucky"))).toEqual(new Set([unluckyKey]));
    expect(screen.getByRole("status")).toHaveTextContent("Imported 3 pets.");
  });

  it("stops starting creates once the session is refused, and ends the session without announcing", async () => {
    // The person is disabled as the import runs: the API refuses their token, and the renewal too.
    let endSession = () => {};
    const { result, requests, session } = renderImport(async (request) => {
      if (request.method !== "POST") return fakePetStore().handler(request);
      endSession();
      return errorResponse(401, "UNAUTHORIZED", "The session token is not valid.");
    });
    endSession = () => session.end("Your account was disabled.");
    checkCsv(result, ...petRows(10));
    await runToEnd(result, () => result.current.importChecked());

    // Only the creates already started when the refusal came; none is sent again (the renewal was refused).
    // The session's end sends the app to sign-in, which may unmount the page (and this hook's state) before
    // the outcomes are read, so they are not asserted here: the run's outcomes are covered by the tests above.
    await waitFor(() => expect(session.state.tokenRefusals).toBe(1));
    expect(posts(requests).length).toBeGreaterThan(0);
    expect(posts(requests).length).toBeLessThanOrEqual(IMPORT_CONCURRENCY);
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  it("stops starting creates when the page is left; those in flight still finish", async () => {
    const store = fakePetStore();
    const firstAnswer = deferred<void>();
    let sent = 0;
    const { result, unmount } = renderImport(async (request) => {
      if (request.method === "POST" && sent++ === 0) await firstAnswer.promise;
      return store.handler(request);
    });
    checkCsv(result, ...petRows(10));
    act(() => result.current.importChecked());
    await waitFor(() => expect(sent).toBe(1));

    unmount();
    firstAnswer.resolve();
    // Held back until the first answer, the runs already started go out; no row after them does.
    await waitFor(() => expect(store.saved.size).toBe(IMPORT_CONCURRENCY));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toBe(IMPORT_CONCURRENCY);
  });
});
