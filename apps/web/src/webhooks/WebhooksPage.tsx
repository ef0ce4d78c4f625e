import { WEBHOOK_EVENT_TYPES, type Webhook, type WebhookWithSecret } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { WEBHOOKS_PATH, webhookPath } from "../navigation/app-paths.js";
import { When } from "../access/When.js";
import { Button } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { FormError } from "../forms/FormError.js";
import { useContractForm } from "../forms/use-contract-form.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import {
  describeEventTypes,
  EMPTY_WEBHOOK_FORM,
  NEW_WEBHOOK_FIELDS,
  toggleEventType,
  validateNewWebhook,
  webhookFieldErrorsFromIssues,
} from "./new-webhook-form.js";
import { refreshWhilePending } from "./delivery-refresh.js";
import { SigningSecret } from "./SigningSecret.js";
import { WebhookStatus } from "./WebhookStatus.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import fieldStyles from "../design-system/Field.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./Webhooks.module.css";

/** `/webhooks` (admin keys only): the endpoints events are sent to, and a form to add one. */
export function WebhooksPage() {
  useDocumentTitle("Webhooks");
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Webhooks</h1>
        <p className={formStyles.intro}>
          Endpoints the store tells when pets are added and keys are created or revoked: each event is POSTed to them,
          signed with the endpoint's secret, and retried until it is answered with a 2xx.
        </p>
      </div>
      <Panel aria-labelledby="add-endpoint-heading">
        <div className={adminPage.panelBody}>
          <h2 id="add-endpoint-heading">Add endpoint</h2>
          <NewWebhookForm onCreated={setCreated} />
          {created && (
            <SigningSecret created={created} pathname={WEBHOOKS_PATH}>
              <p>
                Events will be sent to <strong className={styles.url}>{created.webhook.url}</strong>, signed with this
                secret.
              </p>
            </SigningSecret>
          )}
        </div>
      </Panel>
      <Panel aria-label="Webhook endpoints">
        <WebhookTable />
      </Panel>
    </div>
  );
}

/** Checks the input with the contract's NewWebhook before anything is sent. */
function NewWebhookForm({ onCreated }: { onCreated: (created: WebhookWithSecret) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const eventsHintId = useId();
  const eventsErrorId = useId();
  const { values, setValues, field, fieldErrors, formError, handleSubmit, showFailure, reset } = useContractForm({
    initial: EMPTY_WEBHOOK_FORM,
    fields: NEW_WEBHOOK_FIELDS,
    validate: validateNewWebhook,
    fieldErrorsFromIssues: webhookFieldErrorsFromIssues,
  });
  const createWebhook = access.webhooks.createWebhook.useMutation({
    onSuccess: async ({ body }) => {
      reset();
      onCreated(body);
      showStatusMessage(`Added the endpoint ${body.webhook.url}.`, WEBHOOKS_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.webhooks });
    },
    onError: (error) => showFailure(error, "The endpoint was not added."),
  });

  return (
    <form
      className={`${formStyles.form} ${adminPage.narrow}`}
      aria-labelledby="add-endpoint-heading"
      onSubmit={handleSubmit((body) => createWebhook.mutate({ body }))}
      noValidate
    >
      <FormError message={formError} />
      <TextField
        label="Endpoint URL"
        {...field("url")}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        hint="Where events are POSTed, e.g. https://hooks.example.com/petstore. The API must be able to reach it."
      />
      <TextField
        label="Description"
        {...field("description")}
        optional
        autoComplete="off"
        hint="Optional: what it is for, e.g. Stock system."
      />
      <fieldset
        className={styles.events}
        aria-describedby={[fieldErrors.eventTypes && eventsErrorId, eventsHintId].filter(Boolean).join(" ")}
      >
        <legend>Events</legend>
        <p className={styles.hint} id={eventsHintId}>
          Check the events to send; leave all unchecked to send every event, including types added later.
        </p>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className={styles.checkbox}>
            <input
              type="checkbox"
              name="eventTypes"
              value={type}
              checked={values.eventTypes.includes(type)}
              onChange={(event) =>
                setValues((current) => ({
                  ...current,
                  eventTypes: toggleEventType(current.eventTypes, type, event.target.checked),
                }))
              }
            />
            {type}
          </label>
        ))}
        {fieldErrors.eventTypes && (
          <p className={fieldStyles.error} id={eventsErrorId}>
            {fieldErrors.eventTypes}
          </p>
        )}
      </fieldset>
      <div>
        <Button type="submit" disabled={createWebhook.isPending} aria-busy={createWebhook.isPending || undefined}>
          Add endpoint
        </Button>
      </div>
    </form>
  );
}

/** Every endpoint, newest first: its URL (a link to its page), events, status and last delivery. */
function WebhookTable() {
  const access = useAccessClient();
  const webhooksQuery = access.webhooks.listWebhooks.useQuery({ queryKey: accessQueryKeys.webhookList });

  if (webhooksQuery.isError || isWaitingOutOutage(webhooksQuery)) {
    return <LoadFailure title="The webhook endpoints could not be loaded." query={webhooksQuery} />;
  }
  if (webhooksQuery.isPending) return <p aria-busy="true">Loading webhook endpoints…</p>;
  const webhooks = webhooksQuery.data.body;
  if (webhooks.length === 0) {
    return (
      <Notice tone="info">
        <p>No webhook endpoints yet: add one above to be told when something happens.</p>
      </Notice>
    );
  }

  return (
    <div className={table.scroller}>
      <table className={table.table} aria-label="Webhook endpoints">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Last delivery</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => (
            <tr key={webhook.id}>
              <th scope="row">
                <Link to={webhookPath(webhook.id)} className={styles.url}>
                  {webhook.url}
                </Link>
                {webhook.description && <span className={styles.muted}>{webhook.description}</span>}
              </th>
              <td>{describeEventTypes(webhook.eventTypes)}</td>
              <td>
                <WebhookStatus webhook={webhook} />
              </td>
              <td>
                <LastDelivery webhook={webhook} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The endpoint's newest delivery: its status and when it was last tried. The
 * endpoint list does not carry it, so each row asks for a page of one.
 */
function LastDelivery({ webhook }: { webhook: Webhook }) {
  const access = useAccessClient();
  const deliveryQuery = access.webhooks.listDeliveries.useQuery({
    queryKey: accessQueryKeys.lastDelivery(webhook.id),
    queryData: { params: { webhookId: webhook.id }, query: { limit: 1 } },
    refetchInterval: refreshWhilePending,
  });
  if (deliveryQuery.isPending) return <span aria-busy="true">Loading…</span>;
  if (deliveryQuery.isError) return <>Could not be loaded</>;
  const delivery = deliveryQuery.data.body[0];
  if (!delivery) return <>None yet</>;
  const lastAttempt = delivery.attempts.at(-1);
  return (
    <>
      {delivery.status}
      <span className={styles.muted}>
        <code>{delivery.eventType}</code>, <When at={lastAttempt?.at ?? delivery.createdAt} />
      </span>
    </>
  );
}
