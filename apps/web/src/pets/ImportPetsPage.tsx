import type { NewPet, Pet } from "@petstore/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { memo, useContext, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { describeFailure, isUnauthorized } from "../api/api-errors.js";
import { petQueryKeys } from "../api/petstore-client.js";
import { RateLimitPacer } from "../api/rate-limit-pacer.js";
import { CreateRetrySleepContext, newIdempotencyKey, useCreatePetWithRetry } from "../api/retry-create.js";
import { Button } from "../design-system/Button.js";
import { TextAreaField, TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { ProgressBar } from "../design-system/ProgressBar.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useShowStatusMessage } from "../layout/status-message.js";
import { checkImport, forEachConcurrently, IMPORT_HEADER, ImportKeyring, type CheckedRow } from "./pet-import.js";
import table from "../design-system/DataTable.module.css";
import styles from "./ImportPetsPage.module.css";

/** Creates in flight at once: quick for hundreds of rows, gentle on the API's rate limit. */
export const IMPORT_CONCURRENCY = 4;
const PAGE_PATH = "/pets/import";

/** A row the contract accepted, with the key its create is sent with, every time. */
interface SendableRow {
  line: number;
  pet: NewPet;
  key: string;
}

type RowOutcome = { imported: true; pet: Pet } | { imported: false; error: string };

interface CheckResult {
  rows: CheckedRow[];
  sendable: SendableRow[];
}

function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
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

export function ImportPetsPage() {
  useDocumentTitle("Import pets");
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<CheckResult | null>(null);
  const [outcomes, setOutcomes] = useState<ReadonlyMap<number, RowOutcome>>(new Map());
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  // Kept for the whole visit, so a row sent again (re-checked, retried) reuses its key.
  const keyring = useRef(new ImportKeyring(newIdempotencyKey));
  const outcomesSoFar = useRef<ReadonlyMap<number, RowOutcome>>(new Map());
  const results = useRef<HTMLHeadingElement>(null);
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

  const recordOutcome = (line: number, outcome: RowOutcome) => {
    outcomesSoFar.current = new Map(outcomesSoFar.current).set(line, outcome);
    setOutcomes(outcomesSoFar.current);
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
  const running = importRows.isPending;

  const startImport = (rows: SendableRow[]) => {
    // Set before the run starts, so the button that started it is gone before it can be pressed twice.
    setProgress({ done: 0, total: rows.length });
    // That button goes away: keep keyboard focus in the results rather than dropping it on the page.
    results.current?.focus();
    importRows.mutate(rows);
  };

  const handleCheck = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = checkImport(text);
    outcomesSoFar.current = new Map();
    setOutcomes(outcomesSoFar.current);
    setProgress(null);
    if (!result.ok) {
      setProblem(result.problem);
      setChecked(null);
      return;
    }
    setProblem(null);
    const valid = result.rows.flatMap((row) => (row.result.ok ? [{ line: row.line, pet: row.result.pet }] : []));
    const keys = keyring.current.keysFor(valid.map((row) => row.pet));
    setChecked({ rows: result.rows, sendable: valid.map((row, index) => ({ ...row, key: keys[index] ?? newIdempotencyKey() })) });
  };

  // Take keyboard and screen-reader users to what Check found.
  useEffect(() => {
    if (checked) results.current?.focus();
  }, [checked]);

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setText(await readText(file));
    } catch {
      setProblem(`${file.name} could not be read.`);
    }
  };

  const failedRows = checked?.sendable.filter((row) => outcomes.get(row.line)?.imported === false) ?? [];
  const invalidCount = checked ? checked.rows.length - checked.sendable.length : 0;

  return (
    <div className={styles.page}>
      <div>
        <h1>Import pets</h1>
        <p className={styles.intro}>
          Add many animals at once from CSV. Check shows what the store will accept; Import adds the rows that pass, and a
          row sent twice is still one pet.
        </p>
      </div>
      <Panel>
        <form className={styles.form} onSubmit={handleCheck} noValidate aria-label="Pets to import">
          <TextField label="CSV file" name="file" type="file" accept=".csv,text/csv" onChange={handleFile} disabled={running} />
          <TextAreaField
            label="Pets as CSV"
            name="csv"
            value={text}
            onChange={(event) => setText(event.target.value)}
            readOnly={running}
            spellCheck={false}
            placeholder={`${IMPORT_HEADER}\nRex,1,available`}
            hint={`The first line is the header ${IMPORT_HEADER}; status may be left empty.`}
          />
          <div className={styles.actions}>
            <Button type="submit" variant="secondary" disabled={running}>
              Check
            </Button>
          </div>
        </form>
      </Panel>

      {problem && (
        <Notice tone="error" role="alert">
          <p>{problem}</p>
        </Notice>
      )}

      {checked && (
        <Panel className={styles.results}>
          <h2 ref={results} tabIndex={-1}>
            Checked rows
          </h2>
          <p className={styles.summary}>
            {countOf(checked.rows.length, "row", "rows")}: {checked.sendable.length} ready to import,{" "}
            {countOf(invalidCount, "row", "rows")} with errors{invalidCount > 0 ? " (not imported)" : ""}.
          </p>

          <div className={styles.actions}>
            {checked.sendable.length > 0 && progress === null && (
              <Button onClick={() => startImport(checked.sendable)}>
                Import {countOf(checked.sendable.length, "pet", "pets")}
              </Button>
            )}
            {failedRows.length > 0 && !running && (
              <Button variant="secondary" onClick={() => startImport(failedRows)}>
                Retry failed rows
              </Button>
            )}
          </div>

          {progress && <ImportProgress done={progress.done} total={progress.total} />}

          {failedRows.length > 0 && !running && (
            <section aria-labelledby="not-imported-heading" className={styles.failed}>
              <h3 id="not-imported-heading">Rows not imported</h3>
              <ul>
                {failedRows.map((row) => {
                  const outcome = outcomes.get(row.line);
                  return (
                    <li key={row.line}>
                      Line {row.line}, {row.pet.name}: {outcome && !outcome.imported ? outcome.error : ""}
                    </li>
                  );
                })}
              </ul>
            </section>
          )}

          {/* Focusable, so keyboard users can scroll a wide table that holds no links. */}
          <div className={table.scroller} tabIndex={0} role="region" aria-label="Checked rows, scrollable">
            <table className={`${table.table} ${styles.checked}`} aria-label="Checked rows">
              <thead>
                <tr>
                  <th scope="col" className={table.numeric}>
                    Line
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col" className={table.numeric}>
                    Category ID
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {checked.rows.map((row) => (
                  <CheckedRowView key={row.line} row={row} outcome={outcomes.get(row.line)} />
                ))}
              </tbody>
            </table>
          </div>
        </Panel>
      )}
    </div>
  );
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

function ImportProgress({ done, total }: { done: number; total: number }) {
  return (
    <div className={styles.progress}>
      <ProgressBar label="Import progress" value={done} max={total} valueText={`${done} of ${total} rows`} />
      <span aria-hidden="true">
        {done} of {total}
      </span>
    </div>
  );
}

/** One row per CSV row; memoised because a 500-row import updates one row at a time. */
const CheckedRowView = memo(function CheckedRowView({ row, outcome }: { row: CheckedRow; outcome: RowOutcome | undefined }) {
  let result: string;
  let tone: string | undefined;
  if (!row.result.ok) {
    result = row.result.error;
    tone = styles.error;
  } else if (outcome === undefined) {
    result = "OK";
  } else if (outcome.imported) {
    result = `Imported (id ${outcome.pet.id})`;
    tone = styles.imported;
  } else {
    result = `Not imported: ${outcome.error}`;
    tone = styles.error;
  }
  return (
    <tr>
      <th scope="row" className={table.numeric}>
        {row.line}
      </th>
      <td>{row.values.name}</td>
      <td className={table.numeric}>{row.values.categoryId}</td>
      <td>{row.values.status}</td>
      <td className={tone}>{result}</td>
    </tr>
  );
});
