import type { Pet } from "@petstore/contract";
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import table from "../design-system/DataTable.module.css";
import styles from "./PetTable.module.css";
import { StatusBadge } from "./StatusBadge.js";

/** The rows checked for a bulk change, and how the checkboxes change them. */
export interface PetSelection {
  selected: ReadonlySet<number>;
  onToggle: (pet: Pet, checked: boolean) => void;
  onToggleAll: (checked: boolean) => void;
}

/**
 * Pets in a table; each name links to the pet's page, and the category shows by name (`Category <id>` for an
 * id no category names). With `selection`, each row has a checkbox, and the header one for all. The row of
 * `highlightedId` (a pet just added) stands out and says `New`.
 */
export function PetTable({
  pets,
  highlightedId,
  selection,
  categoryLabel,
  describedBy,
}: {
  pets: Pet[];
  highlightedId?: number | undefined;
  selection?: PetSelection | undefined;
  categoryLabel: (categoryId: number) => string;
  /** The id of what says more about the table (the list's total). */
  describedBy?: string | undefined;
}) {
  return (
    <div className={table.scroller}>
      <table className={`${table.table} ${styles.pets}`} aria-label="Pets" aria-describedby={describedBy}>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className={styles.select}>
                <SelectAll pets={pets} selection={selection} />
              </th>
            )}
            <th scope="col" className={table.numeric}>
              ID
            </th>
            <th scope="col">Name</th>
            <th scope="col">Category</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {pets.map((pet) => {
            const selected = selection?.selected.has(pet.id) ?? false;
            const isNew = pet.id === highlightedId;
            const className = [isNew && styles.highlighted, selected && styles.selected].filter(Boolean).join(" ");
            return (
              <tr key={pet.id} className={className || undefined}>
                {selection && (
                  <td className={styles.select}>
                    <input
                      type="checkbox"
                      aria-label={`Select ${pet.name}`}
                      checked={selected}
                      onChange={(event) => selection.onToggle(pet, event.target.checked)}
                    />
                  </td>
                )}
                <td className={table.numeric}>{pet.id}</td>
                <th scope="row">
                  <Link to={`/pets/${pet.id}`}>{pet.name}</Link>
                  {isNew && (
                    <>
                      {" "}
                      <span className={styles.newBadge}>New</span>
                    </>
                  )}
                </th>
                <td>{categoryLabel(pet.categoryId)}</td>
                <td>
                  <StatusBadge status={pet.status} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** `Select all on this page`: checked when every row is, mixed when some are. */
function SelectAll({ pets, selection }: { pets: Pet[]; selection: PetSelection }) {
  const checkbox = useRef<HTMLInputElement>(null);
  const count = pets.filter((pet) => selection.selected.has(pet.id)).length;
  const all = pets.length > 0 && count === pets.length;
  const some = count > 0 && !all;
  useEffect(() => {
    if (checkbox.current) checkbox.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={checkbox}
      type="checkbox"
      aria-label="Select all on this page"
      checked={all}
      onChange={(event) => selection.onToggleAll(event.target.checked)}
    />
  );
}

/** The header cells of a pet's own fields as a file holds them (the import's checked rows: the category by its id). */
export function PetFieldHeaders() {
  return (
    <>
      <th scope="col">Name</th>
      <th scope="col" className={table.numeric}>
        Category ID
      </th>
      <th scope="col">Status</th>
    </>
  );
}
