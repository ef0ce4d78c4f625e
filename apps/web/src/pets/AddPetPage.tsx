import { LIMIT_DEFAULT, PET_STATUSES, type NewPet } from "@petstore/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { petQueryKeys } from "../api/petstore-client.js";
import { newIdempotencyKey, useCreatePetWithRetry } from "../api/retry-create.js";
import { CategoryField } from "../categories/CategoryField.js";
import { useCategories } from "../categories/category-names.js";
import { Button } from "../design-system/Button.js";
import { FormError } from "../forms/FormError.js";
import { useContractForm } from "../forms/use-contract-form.js";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { Panel } from "../design-system/Panel.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { fieldErrorsFromIssues, NEW_PET_FIELDS, validateNewPet, type NewPetFormValues } from "./new-pet-form.js";
import { toSearchParams } from "./pet-list-view.js";
import type { CreatedPetState } from "./PetsPage.js";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./AddPetPage.module.css";

const EMPTY_FORM: NewPetFormValues = { name: "", categoryId: "", status: "" };

export function AddPetPage() {
  useDocumentTitle("New pet");
  return (
    <div className={`${adminPage.page} ${adminPage.narrow}`}>
      <div>
        <h1>New pet</h1>
        <p className={formStyles.intro}>Add an animal to the store. It gets its id when it is saved.</p>
      </div>
      <Panel>
        <AddPetForm />
      </Panel>
    </div>
  );
}

/** One pet as sent, with the key that makes resending it safe. */
interface Submission {
  body: NewPet;
  key: string;
}

function samePet(a: NewPet, b: NewPet): boolean {
  return a.name === b.name && a.categoryId === b.categoryId && a.status === b.status;
}

/**
 * Checks the input with the contract before anything is sent; on success the
 * list is refreshed and shows its last page, which ends with the new pet, marked `New`.
 *
 * Each create carries an Idempotency-Key and is resent with it when the
 * network or the API fails (api/retry-create.ts), so a lost answer never adds
 * the pet twice. Sending the same pet again after a failure reuses the key
 * too: the first attempt may have been saved. Changed values get a new key.
 */
export function AddPetForm() {
  const { values, update, field, fieldErrors, formError, handleSubmit, showFailure } = useContractForm({
    initial: EMPTY_FORM,
    fields: NEW_PET_FIELDS,
    validate: validateNewPet,
    fieldErrorsFromIssues,
  });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showStatusMessage = useShowStatusMessage();
  const { categories } = useCategories();

  const lastSubmission = useRef<Submission | null>(null);
  const [retrying, setRetrying] = useState(false);
  const createPetWithRetry = useCreatePetWithRetry();
  const createPet = useMutation({
    mutationFn: ({ body, key }: Submission) => createPetWithRetry(body, { key, onRetry: () => setRetrying(true) }),
    onSettled: () => setRetrying(false),
    onSuccess: async ({ body: pet }) => {
      await queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
      showStatusMessage(`Added ${pet.name} (id ${pet.id}).`, "/pets");
      // The page just below the next id: the list's last page, unless someone added a pet meanwhile.
      const lastPage = toSearchParams({
        status: undefined,
        limit: LIMIT_DEFAULT,
        after: undefined,
        before: pet.id + 1,
      });
      const state: CreatedPetState = { createdPetId: pet.id };
      navigate(`/pets?${lastPage.toString()}`, { state });
    },
    onError: (error) => showFailure(error, "The pet was not added."),
  });

  /** The same pet sent again after a failure keeps its key: the first attempt may have been saved. */
  const send = (body: NewPet) => {
    const previous = lastSubmission.current;
    const submission = previous && samePet(previous.body, body) ? previous : { body, key: newIdempotencyKey() };
    lastSubmission.current = submission;
    createPet.mutate(submission);
  };

  return (
    <form className={formStyles.form} onSubmit={handleSubmit(send)} noValidate aria-label="New pet">
      <FormError message={formError} />
      <TextField label="Name" {...field("name")} autoComplete="off" />
      <CategoryField
        categories={categories}
        categoryId={values.categoryId}
        onChange={update("categoryId")}
        error={fieldErrors.categoryId}
        idHint="A whole number, 1 or more."
        placeholder="Choose a category"
      />
      <SelectField
        label="Status"
        {...field("status")}
        optional
        hint="Optional: leave it unset if the pet has no status yet."
      >
        <option value="">Not set</option>
        {PET_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </SelectField>
      <div className={styles.actions}>
        <Button type="submit" disabled={createPet.isPending} aria-busy={createPet.isPending || undefined}>
          Add pet
        </Button>
        {createPet.isPending && <span aria-hidden="true">{retrying ? "Saving… trying again" : "Saving…"}</span>}
      </div>
    </form>
  );
}
