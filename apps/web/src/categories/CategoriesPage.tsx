import type { Category } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { describeFailure, errorBodyOf } from "../api/api-errors.js";
import { categoryQueryKeys, petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { Button } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { FormError } from "../forms/FormError.js";
import { useContractForm } from "../forms/use-contract-form.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { petsCount } from "../design-system/counts.js";
import { petsListPath } from "../navigation/app-paths.js";
import {
  EMPTY_CATEGORY_FORM,
  NEW_CATEGORY_FIELDS,
  newCategoryFieldErrorsFromIssues,
  RENAME_LABEL,
  renameErrorFromIssues,
  validateNewCategory,
  validateRename,
} from "./category-forms.js";
import { useCategories } from "./category-names.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./CategoriesPage.module.css";

export const CATEGORIES_PATH = "/categories";

/** `/categories` (admins): the names of the category ids pets carry, how many pets each has, adding and renaming. */
export function CategoriesPage() {
  useDocumentTitle("Categories");
  const addHeading = useId();
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Categories</h1>
        <p className={formStyles.intro}>
          A category is a name for the category id pets carry: the pets list, the pet forms and the Overview show it
          instead of the id. A pet may carry an id no category names yet; name it here by giving its id.
        </p>
      </div>
      <Panel aria-labelledby={addHeading}>
        <div className={adminPage.panelBody}>
          <h2 id={addHeading}>Add category</h2>
          <AddCategoryForm headingId={addHeading} />
        </div>
      </Panel>
      <Panel aria-label="Named categories">
        <CategoryTable />
      </Panel>
    </div>
  );
}

/** What follows a category added or renamed: every page's names, and the Overview's rows, read again. */
function useCategoriesChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: categoryQueryKeys.all }),
      queryClient.invalidateQueries({ queryKey: petQueryKeys.inventory }),
    ]);
}

/** `Add category`: checked with the contract's NewCategory before anything is sent; the API's refusal (a name taken) in an alert. */
function AddCategoryForm({ headingId }: { headingId: string }) {
  const petstore = usePetstoreClient();
  const showStatusMessage = useShowStatusMessage();
  const categoriesChanged = useCategoriesChanged();
  const { field, formError, handleSubmit, showFailure, reset } = useContractForm({
    initial: EMPTY_CATEGORY_FORM,
    fields: NEW_CATEGORY_FIELDS,
    validate: validateNewCategory,
    fieldErrorsFromIssues: newCategoryFieldErrorsFromIssues,
  });
  const create = petstore.categories.createCategory.useMutation({
    onSuccess: async ({ body }) => {
      reset();
      showStatusMessage(`Added the category ${body.name} (id ${body.id}).`, CATEGORIES_PATH);
      await categoriesChanged();
    },
    onError: (error) => showFailure(error, "The category was not added."),
  });

  return (
    <form
      className={`${formStyles.form} ${adminPage.narrow}`}
      aria-labelledby={headingId}
      onSubmit={handleSubmit((body) => create.mutate({ body }))}
      noValidate
    >
      <FormError message={formError} />
      <TextField
        label="Name"
        {...field("name")}
        autoComplete="off"
        hint="As the lists and forms will show it, e.g. Reptiles. No two categories share a name, whatever the case or accents."
      />
      <TextField
        label="ID"
        {...field("id")}
        optional
        inputMode="numeric"
        autoComplete="off"
        hint="Optional: the category id pets already carry, to name it. Leave it empty for the next free id."
      />
      <div>
        <Button type="submit" disabled={create.isPending} aria-busy={create.isPending || undefined}>
          Add category
        </Button>
      </div>
    </form>
  );
}

/** Every category, by name, with its id and how many pets it has (getInventory); each can be renamed in its row. */
function CategoryTable() {
  const petstore = usePetstoreClient();
  const { query: categoriesQuery, categories } = useCategories();
  const inventoryQuery = petstore.store.getInventory.useQuery({ queryKey: petQueryKeys.inventory });

  if (categoriesQuery.isError || isWaitingOutOutage(categoriesQuery)) {
    return <LoadFailure title="The categories could not be loaded." query={categoriesQuery} />;
  }
  if (!categories) return <p aria-busy="true">Loading categories…</p>;
  if (categories.length === 0) {
    return (
      <Notice tone="info">
        <p>No categories yet: pets show their category ids until one is added above.</p>
      </Notice>
    );
  }
  const pets = new Map(inventoryQuery.data?.body.byCategory.map((category) => [category.categoryId, category.total]));
  return (
    <>
      {(inventoryQuery.isError || isWaitingOutOutage(inventoryQuery)) && (
        <LoadFailure title="The pets in each category could not be counted." query={inventoryQuery} />
      )}
      <div className={table.scroller}>
        <table className={table.table} aria-label="Categories">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className={table.numeric}>
                ID
              </th>
              <th scope="col" className={table.numeric}>
                Pets
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {categories.map((category) => (
              <CategoryRow
                key={category.id}
                category={category}
                pets={inventoryQuery.isSuccess ? (pets.get(category.id) ?? 0) : undefined}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A category's row; `Rename <name>` turns its name into a form, and the focus comes back to the button after. */
function CategoryRow({ category, pets }: { category: Category; pets: number | undefined }) {
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const backToButton = useRef(false);

  useEffect(() => {
    if (!renaming && backToButton.current) {
      backToButton.current = false;
      renameButton.current?.focus();
    }
  }, [renaming]);

  const close = () => {
    backToButton.current = true;
    setRenaming(false);
  };

  return (
    <tr>
      <th scope="row">{renaming ? <RenameCategoryForm category={category} onClose={close} /> : category.name}</th>
      <td className={table.numeric}>{category.id}</td>
      <td className={table.numeric}>
        {pets === undefined ? (
          "–"
        ) : (
          <Link to={petsListPath({ categoryId: category.id })} aria-label={`${petsCount(pets)} in ${category.name}`}>
            {pets.toLocaleString("en")}
          </Link>
        )}
      </td>
      <td>
        {!renaming && (
          // The visible word starts the name (WCAG 2.5.3); the category's name tells the rows' buttons apart.
          <Button
            ref={renameButton}
            variant="secondary"
            aria-label={`Rename ${category.name}`}
            onClick={() => setRenaming(true)}
          >
            Rename
          </Button>
        )}
      </td>
    </tr>
  );
}

/**
 * `Rename <name>`: the new name, checked with the contract's CategoryRename; the API's refusal (a name
 * another category has) in an alert. Escape or Cancel leaves the name as it was.
 */
function RenameCategoryForm({ category, onClose }: { category: Category; onClose: () => void }) {
  const petstore = usePetstoreClient();
  const showStatusMessage = useShowStatusMessage();
  const categoriesChanged = useCategoriesChanged();
  const [name, setName] = useState(category.name);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const rename = petstore.categories.renameCategory.useMutation({
    onSuccess: async ({ body }) => {
      showStatusMessage(`Renamed ${category.name} to ${body.name}.`, CATEGORIES_PATH);
      await categoriesChanged();
      onClose();
    },
    onError: (error) => {
      const body = errorBodyOf(error);
      const serverError = body?.status === 400 ? renameErrorFromIssues(body.issues ?? []) : undefined;
      if (serverError !== undefined) setFieldError(serverError);
      else setFormError(`${category.name} was not renamed. ${describeFailure(error)}`);
    },
  });

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (rename.isPending) return;
    setFormError(null);
    const validation = validateRename(name);
    if (!validation.success) {
      setFieldError(validation.error);
      input.current?.focus();
      return;
    }
    setFieldError(undefined);
    if (validation.data.name === category.name) {
      showStatusMessage(`Nothing to save: ${category.name} keeps its name.`, CATEGORIES_PATH, "info");
      onClose();
      return;
    }
    rename.mutate({ params: { categoryId: category.id }, body: validation.data });
  };

  return (
    <form
      className={styles.renameForm}
      aria-label={`Rename ${category.name}`}
      onSubmit={handleSubmit}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !rename.isPending) onClose();
      }}
      noValidate
    >
      <FormError message={formError} />
      <TextField
        ref={input}
        label={RENAME_LABEL}
        name="name"
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={fieldError}
      />
      <div className={styles.actions}>
        <Button type="submit" aria-disabled={rename.isPending || undefined} aria-busy={rename.isPending || undefined}>
          Save name
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
