import type { ListPetsQuery } from "@petstore/contract";
import { useEffect, useRef, useState } from "react";
import { usePetstoreClient } from "../api/petstore-client.js";
import { Button } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";
import { ProgressBar } from "../design-system/ProgressBar.js";
import { collectPets, exportFileName, petsToCsv, saveTextFile } from "./pet-export.js";
import styles from "./ExportPets.module.css";

type ExportState =
  | { kind: "idle" }
  | { kind: "running"; collected: number }
  | { kind: "done"; count: number; fileName: string }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

/**
 * `Export CSV`: every pet the list's filters match, on every page, saved as
 * one file. `Cancel export` stops the paging and saves nothing.
 */
export function ExportPets({ view }: { view: Pick<ListPetsQuery, "status" | "name" | "categoryId"> }) {
  const petstore = usePetstoreClient();
  const [state, setState] = useState<ExportState>({ kind: "idle" });
  const running = useRef<AbortController | null>(null);

  // Leaving the page cancels an export in progress.
  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setState({ kind: "running", collected: 0 });
    try {
      const pets = await collectPets({
        filters: {
          ...(view.status ? { status: view.status } : {}),
          ...(view.name !== undefined ? { name: view.name } : {}),
          ...(view.categoryId !== undefined ? { categoryId: view.categoryId } : {}),
        },
        fetchPage: (query, signal) => petstore.pets.listPets.query({ query, fetchOptions: { signal } }),
        signal: controller.signal,
        onProgress: (collected) => setState({ kind: "running", collected }),
      });
      const fileName = exportFileName(new Date());
      saveTextFile(petsToCsv(pets), fileName);
      setState({ kind: "done", count: pets.length, fileName });
    } catch (error) {
      if (controller.signal.aborted) setState({ kind: "cancelled" });
      else setState({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  return (
    <div className={styles.export}>
      {state.kind === "running" ? (
        <>
          <ProgressBar label="Export progress" valueText={`${state.collected} pets so far`} />
          <span className={styles.count} aria-hidden="true">
            {state.collected} pets
          </span>
          <Button variant="secondary" onClick={() => running.current?.abort()}>
            Cancel export
          </Button>
        </>
      ) : (
        <Button variant="secondary" onClick={() => void start()}>
          Export CSV
        </Button>
      )}
      {state.kind === "done" && (
        <p role="status" className={styles.message}>
          Exported {state.count === 1 ? "1 pet" : `${state.count} pets`} to {state.fileName}.
        </p>
      )}
      {state.kind === "cancelled" && (
        <p role="status" className={styles.message}>
          Export cancelled; no file was saved.
        </p>
      )}
      {state.kind === "failed" && (
        <Notice tone="error" role="alert">
          <p>{state.message} No file was saved.</p>
        </Notice>
      )}
    </div>
  );
}
