import { memo, useEffect, useRef, type ChangeEvent, type FormEvent } from "react";
import { Button } from "../design-system/Button.js";
import { TextAreaField, TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { ProgressBar } from "../design-system/ProgressBar.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { countOf, IMPORT_HEADER, type CheckedRow } from "./pet-import.js";
import { PetFieldHeaders } from "./PetTable.js";
import { useImportPets, type RowOutcome } from "./use-import-pets.js";
import table from "../design-system/DataTable.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./ImportPetsPage.module.css";

/** The import page: what useImportPets checked and sent, drawn; keyboard focus kept in the results. */
export function ImportPetsPage() {
  useDocumentTitle("Import pets");
  const {
    text,
    setText,
    readFile,
    problem,
    check,
    checked,
    outcomes,
    progress,
    running,
    failedRows,
    importChecked,
    retryFailed,
  } = useImportPets();
  const results = useRef<HTMLHeadingElement>(null);

  const startImport = (start: () => void) => {
    start();
    // The button that started the run goes away: keep keyboard focus in the results rather than dropping it on the page.
    results.current?.focus();
  };

  const handleCheck = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    check();
  };

  // Take keyboard and screen-reader users to what Check found.
  useEffect(() => {
    if (checked) results.current?.focus();
  }, [checked]);

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) void readFile(file);
  };

  const invalidCount = checked ? checked.rows.length - checked.sendable.length : 0;

  return (
    <div className={adminPage.page}>
      <div>
        <h1>Import pets</h1>
        <p className={styles.intro}>
          Add many animals at once from CSV. Check shows what the store will accept; Import adds the rows that pass, and
          a row sent twice is still one pet.
        </p>
      </div>
      <Panel>
        <form className={styles.form} onSubmit={handleCheck} noValidate aria-label="Pets to import">
          <TextField
            label="CSV file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            onChange={handleFile}
            disabled={running}
          />
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
              <Button onClick={() => startImport(importChecked)}>
                Import {countOf(checked.sendable.length, "pet", "pets")}
              </Button>
            )}
            {failedRows.length > 0 && !running && (
              <Button variant="secondary" onClick={() => startImport(retryFailed)}>
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
                  <PetFieldHeaders />
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
const CheckedRowView = memo(function CheckedRowView({
  row,
  outcome,
}: {
  row: CheckedRow;
  outcome: RowOutcome | undefined;
}) {
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
