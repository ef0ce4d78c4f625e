import { SCOPES, type CreatedApiKey } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { Button } from "../design-system/Button.js";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { Panel } from "../design-system/Panel.js";
import { ShownOnceSecret } from "../design-system/ShownOnceSecret.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { KEYS_PATH } from "../navigation/app-paths.js";
import { FormError } from "../forms/FormError.js";
import { useContractForm } from "../forms/use-contract-form.js";
import { KeyTable } from "./KeyTable.js";
import { keyFieldErrorsFromIssues, NEW_KEY_FIELDS, validateNewKey, type NewKeyFormValues } from "./new-key-form.js";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";

/** `/keys` (admin keys only): the issued keys, a form to issue one, and revoking. */
export function KeysPage() {
  useDocumentTitle("Keys");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Keys</h1>
        <p className={formStyles.intro}>
          Issue each person or service a key of its own, with no more scope than it needs; revoke it when it is no
          longer needed. The store's configured keys are not listed here.
        </p>
      </div>
      <Panel aria-labelledby="create-key-heading">
        <div className={adminPage.panelBody}>
          <h2 id="create-key-heading">Create a key</h2>
          <NewKeyForm onCreated={setCreated} />
          {created && <NewKeySecret created={created} />}
        </div>
      </Panel>
      <Panel aria-label="Issued keys">
        {/* A secret that can no longer sign anyone in is not left on screen to be copied. */}
        <KeyTable onRevoked={(key) => setCreated((shown) => (shown?.key.id === key.id ? null : shown))} />
      </Panel>
    </div>
  );
}

const EMPTY_FORM: NewKeyFormValues = { name: "", scope: "read", expiresAt: "" };

/** Checks the input with the contract's NewApiKey before anything is sent. */
function NewKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const { field, formError, handleSubmit, showFailure, reset } = useContractForm({
    initial: EMPTY_FORM,
    fields: NEW_KEY_FIELDS,
    validate: validateNewKey,
    fieldErrorsFromIssues: keyFieldErrorsFromIssues,
  });
  const createKey = access.keys.createKey.useMutation({
    onSuccess: async ({ body }) => {
      reset();
      onCreated(body);
      showStatusMessage(`Created the key ${body.key.name}.`, KEYS_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.all });
    },
    onError: (error) => showFailure(error, "The key was not created."),
  });

  return (
    <form
      className={`${formStyles.form} ${adminPage.narrow}`}
      onSubmit={handleSubmit((body) => createKey.mutate({ body }))}
      noValidate
    >
      <FormError message={formError} />
      <TextField label="Name" {...field("name")} autoComplete="off" hint="Who or what will use it, e.g. Front desk." />
      <SelectField
        label="Scope"
        {...field("scope")}
        hint="read: list and read pets. write: also add them. admin: also keys and activity."
      >
        {SCOPES.map((scope) => (
          <option key={scope} value={scope}>
            {scope}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Expires"
        {...field("expiresAt")}
        type="date"
        optional
        hint="Optional: the key works through this day (your time zone). Leave it empty for a key that does not expire."
      />
      <div>
        <Button type="submit" disabled={createKey.isPending} aria-busy={createKey.isPending || undefined}>
          Create key
        </Button>
      </div>
    </form>
  );
}

/** The secret of the key just created: the only time anyone sees it (the API keeps its digest only). */
function NewKeySecret({ created }: { created: CreatedApiKey }) {
  return (
    <ShownOnceSecret
      label="New key"
      secret={created.secret}
      hint="It will not be shown again: copy it now and hand it over safely."
      copiedMessage={`Copied the key for ${created.key.name}.`}
      noun="key"
      pathname={KEYS_PATH}
    >
      <p>
        <strong>
          {created.key.name} ({created.key.scope})
        </strong>{" "}
        can sign in with this key.
      </p>
    </ShownOnceSecret>
  );
}
