import type { NewPet, Pet } from "@petstore/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useContext, useEffect, useRef, useState } from "react";
import { describeFailure, isUnauthorized } from "../api/api-errors.js";
import { petQueryKeys } from "../api/petstore-client.js";
import { RateLimitPacer } from "../api/rate-limit-pacer.js";
import { CreateRetrySleepContext, newIdempotencyKey, useCreatePetWithRetry } from "../api/retry-create.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { checkImport, countOf, forEachConcurrently, ImportKeyring, type CheckedRow } from "./pet-import.js";

/** Creates in flight at once: quick for hundreds of rows, gentle on the API's rate limit. */
export const IMPORT_CONCURRENCY = 4;
/** The page an import run announces its end on. */
const PAGE_PATH = "/pets/import";

/** A row the contract accepted, with the key its create is sent with, every time. */
export interface SendableRow {
  line: number;
  pet: NewPet;
  key: string;
}

/** How one row's create ended. */
export type RowOutcome = { imported: true; pet: Pet } | { imported: false; error: string };

/** What Check found: every row, and those the contract accepted, each with its key. */
export interface CheckResult {
  rows: CheckedRow[];
  sendable: SendableRow[];
}

export interface RunProgress {
  done: number;
  total: number;
}

/** The import as the page shows it, and what staff can do with it. */
export interface ImportPets {
  /** The CSV being imported, as typed or read from a file. */
  text: string;
  setText: (text: string) => void;
  /** Fills `text` from a chosen file; says so in `problem` when it cannot be read. */
  readFile: (file: File) => Promise<void>;
  /** Why the text could not be checked (or the file read); null when nothing is wrong. */
  problem: string | null;
  /** Reads `text` and checks every row with the contract; sends nothing, and forgets the last run's outcomes. */
  check: () => void;
  /** What the last Check found; null before one, or when it found a problem. */
  checked: CheckResult | null;
  /** Each sent row's outcome so far, by line. */
  outcomes: ReadonlyMap<number, RowOutcome>;
  /** The run under way or last finished; null until Import is pressed after a Check. */
  progress: RunProgress | null;
  running: boolean;
  /** The rows of the last Check whose create failed, with the keys they were sent with. */
  failedRows: SendableRow[];
  /** Sends every row the last Check accepted. */
  importChecked: () => void;
  /** Sends the failed rows again, each with its own key, so a create that was saved is replayed, not repeated. */
  retryFailed: () => void;
}

/** The status line an import run ends with. */
function importSummary(outcomes: ReadonlyMap<number, RowOutcome>): { message: string; allImported: boolean } {
  const all = [...outcomes.values()];
  const imported = all.filter((outcome) => outcome.imported).length;
  const failed = all.length - imported;
  const message = `Imported ${countOf(imported, "pet", "pets")}.`;
  if (failed === 0) return { message, allImported: true };
  return { message: `${message} ${countOf(failed, "row was", "rows were")} not imported.`, allImported: false };
}

/** FileReader rather than `Blob.text()`, which older browsers (and jsdom) lack. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === "string" ? reader.result : "");
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsText(file);
  });
}

/**
 * The bulk import of pets from CSV: Check, then one create per accepted row,
 * at most IMPORT_CONCURRENCY in flight, each with its own Idempotency-Key
 * (kept for the whole visit, so a row sent again is replayed, not added
 * twice), retried by the create policy, paced by the API's RateLimit headers.
 * A refused key stops the run and ends the session; leaving the page stops
 * starting new creates. The run ends with a message in the status region.
 */
export function useImportPets(): ImportPets {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<CheckResult | null>(null);
  const [outcomes, setOutcomes] = useState<ReadonlyMap<number, RowOutcome>>(new Map());
  const [progress, setProgress] = useState<RunProgress | null>(null);
  // Kept for the whole visit, so a row sent again (re-checked, retried) reuses its key.
  const keyring = useRef(new ImportKeyring(newIdempotencyKey));
  const outcomesSoFar = useRef<ReadonlyMap<number, RowOutcome>>(new Map());
  const left = useRef(false);
  const queryClient = useQueryClient();
  const createPetWithRetry = useCreatePetWithRetry();
  const sleep = useContext(CreateRetrySleepContext);
  const showStatusMessage = useShowStatusMessage();

  // Leaving the page stops starting new creates; those in flight finish, and their pets show in the list.
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);

  const showOutcomes = (next: ReadonlyMap<number, RowOutcome>) => {
    outcomesSoFar.current = next;
    setOutcomes(next);
  };

  const recordOutcome = (line: number, outcome: RowOutcome) => {
    showOutcomes(new Map(outcomesSoFar.current).set(line, outcome));
    setProgress((current) => current && { ...current, done: current.done + 1 });
  };

  const importRows = useMutation({
    mutationFn: async (rows: SendableRow[]) => {
      let refusedKey: unknown;
      // One per run: the API's RateLimit answers slow the run down before the key's budget is spent.
      const pacer = new RateLimitPacer(sleep);
      await forEachConcurrently(
        rows,
        IMPORT_CONCURRENCY,
        async (row) => {
          try {
            const created = await createPetWithRetry(row.pet, { key: row.key, pacer });
            recordOutcome(row.line, { imported: true, pet: created.body });
          } catch (failure) {
            if (isUnauthorized(failure)) refusedKey = failure;
            recordOutcome(row.line, { imported: false, error: describeFailure(failure) });
          }
        },
        () => left.current || refusedKey !== undefined,
      );
      // Thrown, so the query client ends the session as for any 401.
      if (refusedKey !== undefined) throw refusedKey;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: petQueryKeys.all }),
    onSuccess: () => {
      // Announced on this page only; staff who left will see the pets in the list.
      if (left.current) return;
      const { message, allImported } = importSummary(outcomesSoFar.current);
      showStatusMessage(message, PAGE_PATH, allImported ? "success" : "info");
    },
  });

  const startImport = (rows: SendableRow[]) => {
    if (rows.length === 0) return;
    // Set before the run starts, so the button that started it is gone before it can be pressed twice.
    setProgress({ done: 0, total: rows.length });
    importRows.mutate(rows);
  };

  const check = () => {
    const result = checkImport(text);
    showOutcomes(new Map());
    setProgress(null);
    if (!result.ok) {
      setProblem(result.problem);
      setChecked(null);
      return;
    }
    setProblem(null);
    const valid = result.rows.flatMap((row) => (row.result.ok ? [{ line: row.line, pet: row.result.pet }] : []));
    const keys = keyring.current.keysFor(valid.map((row) => row.pet));
    setChecked({
      rows: result.rows,
      sendable: valid.map((row, index) => ({ ...row, key: keys[index] ?? newIdempotencyKey() })),
    });
  };

  const readFile = async (file: File) => {
    try {
      setText(await readText(file));
    } catch {
      setProblem(`${file.name} could not be read.`);
    }
  };

  const failedRows = checked?.sendable.filter((row) => outcomes.get(row.line)?.imported === false) ?? [];

  return {
    text,
    setText,
    readFile,
    problem,
    check,
    checked,
    outcomes,
    progress,
    running: importRows.isPending,
    failedRows,
    importChecked: () => startImport(checked?.sendable ?? []),
    retryFailed: () => startImport(failedRows),
  };
}
