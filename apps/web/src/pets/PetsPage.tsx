import { PET_STATUSES, PetStatus, type ListPetsQuery } from "@petstore/contract";
import { useLocation, useSearchParams } from "react-router-dom";
import { SelectField } from "../design-system/FormFields.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { PAGE_SIZES, readPetListView, toSearchParams } from "./pet-list-view.js";
import { PetList } from "./PetList.js";
import styles from "./PetsPage.module.css";

/** Navigation state the add form leaves behind, so the new pet's row stands out. */
export interface CreatedPetState {
  createdPetId: number;
}

function createdPetIdOf(state: unknown): number | undefined {
  if (typeof state === "object" && state !== null && "createdPetId" in state && typeof state.createdPetId === "number") {
    return state.createdPetId;
  }
  return undefined;
}

export function PetsPage() {
  useDocumentTitle("Pets");
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const view = readPetListView(searchParams);

  // A new filter or page size starts again from the first pet; each change is a history entry.
  const showView = (changes: Partial<ListPetsQuery>) =>
    setSearchParams(toSearchParams({ ...view, after: undefined, ...changes }));

  return (
    <div className={styles.page}>
      <h1>Pets</h1>
      <Panel aria-label="Pet list">
        <div className={styles.filters}>
          <SelectField
            label="Status"
            value={view.status ?? ""}
            onChange={(event) => {
              const status = PetStatus.safeParse(event.target.value);
              showView({ status: status.success ? status.data : undefined });
            }}
          >
            <option value="">All</option>
            {PET_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Page size"
            value={view.limit}
            onChange={(event) => {
              const limit = PAGE_SIZES.find((size) => String(size) === event.target.value);
              if (limit) showView({ limit });
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </SelectField>
        </div>
        <PetList view={view} highlightedId={createdPetIdOf(location.state)} />
      </Panel>
    </div>
  );
}
