import { PET_STATUSES, PetName, PetStatus } from "@petstore/contract";
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useCategories } from "../categories/category-names.js";
import { ExportPets } from "./ExportPets.js";
import {
  LIST_PETS_PARAMETERS,
  PAGE_SIZES,
  readPetListView,
  toSearchParams,
  type PetListView,
} from "./pet-list-view.js";
import { PetList } from "./PetList.js";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./PetsPage.module.css";

/** Navigation state the add form leaves behind, so the new pet's row stands out. */
export interface CreatedPetState {
  createdPetId: number;
}

function createdPetIdOf(state: unknown): number | undefined {
  if (
    typeof state === "object" &&
    state !== null &&
    "createdPetId" in state &&
    typeof state.createdPetId === "number"
  ) {
    return state.createdPetId;
  }
  return undefined;
}

/** How long typing pauses before the search runs: one request per pause, not per keystroke. */
export const SEARCH_DEBOUNCE_MS = 400;

/** The tab's title: the page, then its filters (`category`: the category filter's name), so a tab says what it holds. */
export function petsPageTitle(view: Pick<PetListView, "name" | "status">, category?: string): string {
  const filters = [view.name !== undefined ? `name “${view.name}”` : undefined, category, view.status].filter(Boolean);
  return filters.length > 0 ? `Pets: ${filters.join(", ")}` : "Pets";
}

export function PetsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const view = readPetListView(searchParams);
  const { categories, names, label: categoryLabel } = useCategories();
  const categoryFilter = view.categoryId !== undefined ? categoryLabel(view.categoryId) : undefined;
  useDocumentTitle(petsPageTitle(view, categoryFilter));

  // A new filter or page size starts again from the first pet; each change is a history entry.
  const showView = (changes: Partial<PetListView>) =>
    setSearchParams(toSearchParams({ ...view, after: undefined, before: undefined, ...changes }));

  return (
    <div className={adminPage.page}>
      <h1>Pets</h1>
      <Panel aria-label="Pet list">
        <div className={styles.filters}>
          <NameSearch name={view.name} onSearch={(name) => showView({ name })} />
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
            label="Category"
            value={view.categoryId ?? ""}
            onChange={(event) => {
              const categoryId = LIST_PETS_PARAMETERS.categoryId.safeParse(event.target.value || undefined);
              showView({ categoryId: categoryId.success ? categoryId.data : undefined });
            }}
          >
            <option value="">All</option>
            {categories?.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
            {/* An id no category names (a link from the Overview's `Category 7`) is still the filter shown. */}
            {view.categoryId !== undefined && !names?.has(view.categoryId) && (
              <option value={view.categoryId}>{categoryFilter}</option>
            )}
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
        {/* A list per view: a selection is of the pets shown, and a new filter or page starts without one. */}
        <PetList key={toSearchParams(view).toString()} view={view} highlightedId={createdPetIdOf(location.state)} />
        {/* After the list: the table stays the next stop from the filters, for keyboard users too. */}
        <div className={styles.actions}>
          <ExportPets view={view} />
        </div>
      </Panel>
    </div>
  );
}

/**
 * `Search by name`: runs when typing pauses (SEARCH_DEBOUNCE_MS) or on Enter,
 * never per keystroke. What the contract would refuse (a control character,
 * over 100 characters) is said beside the field and not sent; an empty field
 * clears the search.
 */
function NameSearch({ name, onSearch }: { name: string | undefined; onSearch: (name: string | undefined) => void }) {
  const [text, setText] = useState(name ?? "");
  const [error, setError] = useState<string | undefined>();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ name, onSearch });
  latest.current = { name, onSearch };
  /** The name this field last asked the URL for, until the URL has it: null when none is on its way. */
  const asked = useRef<string | undefined | null>(null);

  // The URL leads: back, forward and links set the field; but a search the field itself ran leaves its
  // text alone, whatever was typed since (on a slow machine the URL may catch up after more keys: they
  // stay), and so does a trailing space typed before the pause.
  useEffect(() => {
    if (asked.current !== null && asked.current === name) {
      asked.current = null;
      return;
    }
    asked.current = null;
    setText((current) => (current.trim() === (name ?? "") ? current : (name ?? "")));
    setError(undefined);
  }, [name]);
  useEffect(() => () => clearTimeout(pending.current), []);

  const run = (value: string) => {
    clearTimeout(pending.current);
    const blank = value.trim() === "";
    const parsed = PetName.safeParse(value);
    if (!blank && !parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    const next = blank ? undefined : parsed.data;
    if (next !== latest.current.name) {
      asked.current = next;
      latest.current.onSearch(next);
    }
  };

  return (
    <form
      role="search"
      className={styles.search}
      onSubmit={(event) => {
        event.preventDefault();
        run(text);
      }}
    >
      <TextField
        label="Search by name"
        type="search"
        value={text}
        error={error}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          clearTimeout(pending.current);
          pending.current = setTimeout(() => run(value), SEARCH_DEBOUNCE_MS);
        }}
      />
    </form>
  );
}
