import type { Pet } from "@petstore/contract";
import { Link } from "react-router-dom";
import table from "../design-system/DataTable.module.css";
import styles from "./PetTable.module.css";
import { StatusBadge } from "./StatusBadge.js";

/** Pets in a table; each name links to the pet's page. */
export function PetTable({ pets, highlightedId }: { pets: Pet[]; highlightedId?: number | undefined }) {
  return (
    <div className={table.scroller}>
      <table className={`${table.table} ${styles.pets}`} aria-label="Pets">
        <thead>
          <tr>
            <th scope="col" className={table.numeric}>
              ID
            </th>
            <PetFieldHeaders />
          </tr>
        </thead>
        <tbody>
          {pets.map((pet) => (
            <tr key={pet.id} className={pet.id === highlightedId ? styles.highlighted : undefined}>
              <td className={table.numeric}>{pet.id}</td>
              <th scope="row">
                <Link to={`/pets/${pet.id}`}>{pet.name}</Link>
              </th>
              <td className={table.numeric}>{pet.categoryId}</td>
              <td>
                <StatusBadge status={pet.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The header cells of a pet's own fields, as every table of pets shows them (this one, the import's checked rows). */
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
