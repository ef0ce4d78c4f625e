import {
  ListDeliveriesQuery,
  WebhookIdParams,
  type Delivery,
  type Webhook,
  type WebhookWithSecret,
} from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router-dom";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { describeFailure, isNotFound } from "../api/api-errors.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { WEBHOOKS_PATH, webhookPath } from "../navigation/app-paths.js";
import { When } from "../access/When.js";
import { Button, ButtonLink } from "../design-system/Button.js";
import { ConfirmAction } from "../design-system/ConfirmAction.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { NotFound } from "../design-system/NotFoundPage.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { refreshWhilePending } from "./delivery-refresh.js";
import { describeEventTypes } from "./new-webhook-form.js";
import { RecoverEvents } from "./RecoverEvents.js";
import { SigningSecret } from "./SigningSecret.js";
import { WebhookStatus } from "./WebhookStatus.js";
import table from "../design-system/DataTable.module.css";
import pager from "../design-system/Pager.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./Webhooks.module.css";

/** `/webhooks/:webhookId` (admin keys only). An id the contract would refuse is not found without asking the API. */
export function WebhookPage() {
  const { webhookId = "" } = useParams();
  const parsed = WebhookIdParams.safeParse({ webhookId });
  if (!parsed.success) {
    return <WebhookNotFound detail={`“${webhookId}” is not a webhook endpoint id: ids are whole numbers from 1.`} />;
  }
  return <WebhookDetail webhookId={parsed.data.webhookId} />;
}

function WebhookNotFound({ detail }: { detail: string }) {
  useDocumentTitle("Webhook endpoint not found");
  return <NotFound title="Webhook endpoint not found" detail={detail} />;
}

function WebhookDetail({ webhookId }: { webhookId: number }) {
  const access = useAccessClient();
  const webhookQuery = access.webhooks.getWebhook.useQuery({
    queryKey: accessQueryKeys.webhook(webhookId),
    queryData: { params: { webhookId } },
  });
  useDocumentTitle(webhookQuery.data ? `Webhook ${webhookQuery.data.body.url}` : `Webhook endpoint ${webhookId}`);

  if (webhookQuery.isError && isNotFound(webhookQuery.error)) {
    return <WebhookNotFound detail={`There is no webhook endpoint with id ${webhookId}.`} />;
  }
  if (webhookQuery.isError || isWaitingOutOutage(webhookQuery)) {
    return <LoadFailure title={`Webhook endpoint ${webhookId} could not be loaded.`} query={webhookQuery} />;
  }
  if (webhookQuery.isPending) return <p aria-busy="true">Loading webhook endpoint {webhookId}…</p>;
  return <WebhookView webhook={webhookQuery.data.body} />;
}

function WebhookView({ webhook }: { webhook: Webhook }) {
  const path = webhookPath(webhook.id);
  const [rotated, setRotated] = useState<WebhookWithSecret | null>(null);
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Webhook endpoint</h1>
      </div>
      <Panel aria-label="Endpoint">
        <dl className={styles.details}>
          <dt>URL</dt>
          <dd className={styles.url}>{webhook.url}</dd>
          <dt>Description</dt>
          <dd>{webhook.description ?? "None"}</dd>
          <dt>Events</dt>
          <dd>{describeEventTypes(webhook.eventTypes)}</dd>
          <dt>Status</dt>
          <dd>
            <WebhookStatus webhook={webhook} />
          </dd>
          <dt>Secret</dt>
          <dd>
            <code>{webhook.secretPrefix}…</code>
          </dd>
          <dt>Added</dt>
          <dd>
            <When at={webhook.createdAt} /> by {webhook.createdBy}
          </dd>
        </dl>
        <WebhookActions webhook={webhook} onRotated={setRotated} />
        {rotated && (
          <div className={styles.actions}>
            <SigningSecret created={rotated} pathname={path}>
              <p>
                The new signing secret. For the next 24 hours each event is signed with the old secret too, so the
                receiver can change over.
              </p>
            </SigningSecret>
          </div>
        )}
      </Panel>
      <Panel aria-labelledby="recover-heading">
        <RecoverEvents webhook={webhook} />
      </Panel>
      <Panel aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <DeliveryList webhookId={webhook.id} />
      </Panel>
      <div>
        <ButtonLink to={WEBHOOKS_PATH}>Back to webhooks</ButtonLink>
      </div>
    </div>
  );
}

/** Send test event, Rotate secret, Disable or Enable, and Delete (after an alertdialog). */
function WebhookActions({ webhook, onRotated }: { webhook: Webhook; onRotated: (rotated: WebhookWithSecret) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const path = webhookPath(webhook.id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accessQueryKeys.webhooks });

  const sendTestEvent = access.webhooks.sendTestEvent.useMutation({
    onMutate: () => setFailure(null),
    onSuccess: async () => {
      showStatusMessage("Sent a test event: its delivery is listed below.", path);
      await refresh();
    },
    onError: (error) => setFailure(`The test event was not sent. ${describeFailure(error)}`),
  });
  const rotateSecret = access.webhooks.rotateWebhookSecret.useMutation({
    onMutate: () => setFailure(null),
    onSuccess: async ({ body }) => {
      onRotated(body);
      showStatusMessage("Rotated the signing secret.", path);
      await refresh();
    },
    onError: (error) => setFailure(`The secret was not rotated. ${describeFailure(error)}`),
  });
  const setEnabled = access.webhooks.updateWebhook.useMutation({
    onMutate: () => setFailure(null),
    onSuccess: async ({ body }) => {
      showStatusMessage(
        body.enabled
          ? "Enabled the endpoint: events are sent to it again."
          : "Disabled the endpoint: nothing is sent to it.",
        path,
      );
      await refresh();
    },
    onError: (error) => setFailure(`The endpoint was not changed. ${describeFailure(error)}`),
  });
  // The buttons stay enabled while a change is under way (a disabled button drops the keyboard focus); a click then does nothing.
  const busy = sendTestEvent.isPending || rotateSecret.isPending || setEnabled.isPending;
  const unlessBusy = (action: () => void) => () => {
    if (!busy) action();
  };

  return (
    <>
      {failure && (
        <div className={styles.actions}>
          <Notice tone="error" role="alert">
            <p>{failure}</p>
          </Notice>
        </div>
      )}
      <div className={styles.actions}>
        <Button
          onClick={unlessBusy(() => sendTestEvent.mutate({ params: { webhookId: webhook.id }, body: {} }))}
          aria-busy={sendTestEvent.isPending || undefined}
        >
          Send test event
        </Button>
        <Button
          variant="secondary"
          onClick={unlessBusy(() => rotateSecret.mutate({ params: { webhookId: webhook.id }, body: {} }))}
          aria-busy={rotateSecret.isPending || undefined}
        >
          Rotate secret
        </Button>
        <Button
          variant="secondary"
          onClick={unlessBusy(() =>
            setEnabled.mutate({ params: { webhookId: webhook.id }, body: { enabled: !webhook.enabled } }),
          )}
          aria-busy={setEnabled.isPending || undefined}
        >
          {webhook.enabled ? "Disable" : "Enable"}
        </Button>
        <Button variant="danger" onClick={unlessBusy(() => setDeleting(true))}>
          Delete
        </Button>
      </div>
      {deleting && <DeleteWebhookDialog webhook={webhook} onCancel={() => setDeleting(false)} />}
    </>
  );
}

/** Confirms a delete; on success the list of endpoints takes over, with the news in its status region. */
function DeleteWebhookDialog({ webhook, onCancel }: { webhook: Webhook; onCancel: () => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const navigate = useNavigate();
  const deleteWebhook = access.webhooks.deleteWebhook.useMutation({
    onSuccess: () => {
      showStatusMessage(`Deleted the endpoint ${webhook.url}.`, WEBHOOKS_PATH);
      navigate(WEBHOOKS_PATH);
      // Gone: its page and deliveries are not read again (they would be 404s), the list is.
      queryClient.removeQueries({ queryKey: accessQueryKeys.webhook(webhook.id) });
      void queryClient.invalidateQueries({ queryKey: accessQueryKeys.webhookList });
    },
  });

  return (
    <ConfirmAction
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      action={deleteWebhook}
      failure="The endpoint was not deleted."
      onCancel={onCancel}
      onConfirm={() => deleteWebhook.mutate({ params: { webhookId: webhook.id } })}
    >
      <p>
        Nothing more is sent to <span className={styles.url}>{webhook.url}</span>, and its deliveries are deleted with
        it. This cannot be undone.
      </p>
    </ConfirmAction>
  );
}

function readAfter(params: URLSearchParams): number | undefined {
  const after = ListDeliveriesQuery.shape.after.safeParse(params.get("after") ?? undefined);
  return after.success ? after.data : undefined;
}

function deliveriesLink(webhookId: number, after: number | undefined): string {
  return after === undefined ? webhookPath(webhookId) : `${webhookPath(webhookId)}?after=${after}`;
}

/** The endpoint's deliveries, newest first, a page at a time (`after` in the URL); read again while one is pending. */
function DeliveryList({ webhookId }: { webhookId: number }) {
  const access = useAccessClient();
  const [searchParams] = useSearchParams();
  const after = readAfter(searchParams);
  const deliveriesQuery = access.webhooks.listDeliveries.useQuery({
    queryKey: accessQueryKeys.deliveryPage(webhookId, after),
    queryData: { params: { webhookId }, query: after !== undefined ? { after } : {} },
    refetchInterval: refreshWhilePending,
  });

  if (deliveriesQuery.isError || isWaitingOutOutage(deliveriesQuery)) {
    return <LoadFailure title="The deliveries could not be loaded." query={deliveriesQuery} />;
  }
  if (deliveriesQuery.isPending) return <p aria-busy="true">Loading deliveries…</p>;

  const { body: deliveries, headers } = deliveriesQuery.data;
  const firstPage = deliveriesLink(webhookId, undefined);
  if (deliveries.length === 0) {
    return (
      <Notice tone="info" action={after !== undefined ? <ButtonLink to={firstPage}>First page</ButtonLink> : undefined}>
        <p>
          {after !== undefined
            ? "No more deliveries."
            : "Nothing has been sent to this endpoint yet. Send a test event to try it."}
        </p>
      </Notice>
    );
  }

  const nextAfter = nextPageCursor(headers.get("link"), ListDeliveriesQuery.shape.after);
  return (
    <>
      <DeliveryTable webhookId={webhookId} deliveries={deliveries} />
      <div className={pager.pager}>
        <p className={pager.summary}>{deliveries.length === 1 ? "1 delivery" : `${deliveries.length} deliveries`}</p>
        <div className={pager.pagerLinks}>
          {after !== undefined && <ButtonLink to={firstPage}>First page</ButtonLink>}
          {nextAfter !== undefined && <ButtonLink to={deliveriesLink(webhookId, nextAfter)}>Next page</ButtonLink>}
        </div>
      </div>
    </>
  );
}

/** The last attempt's answer: its HTTP status and the start of its body, or why there was none. */
function Answer({ delivery }: { delivery: Delivery }) {
  const attempt = delivery.attempts.at(-1);
  if (!attempt) return <>Not sent yet</>;
  return (
    <>
      {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : "No answer"}
      {attempt.error && <span className={styles.muted}>{attempt.error}</span>}
      {attempt.answer !== "" && <code className={styles.answer}>{attempt.answer}</code>}
    </>
  );
}

function DeliveryTable({ webhookId, deliveries }: { webhookId: number; deliveries: Delivery[] }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const resend = access.webhooks.resendDelivery.useMutation({
    onMutate: () => setFailure(null),
    onSuccess: async ({ body }) => {
      showStatusMessage(`Resending the ${body.eventType} delivery.`, webhookPath(webhookId));
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.deliveries(webhookId) });
    },
    onError: (error) => setFailure(`The delivery was not resent. ${describeFailure(error)}`),
  });

  return (
    <>
      {failure && (
        <Notice tone="error" role="alert">
          <p>{failure}</p>
        </Notice>
      )}
      <div className={table.scroller}>
        <table className={table.table} aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => {
              const eventId = `delivery-${delivery.id}-event`;
              const lastAttempt = delivery.attempts.at(-1);
              return (
                <tr key={delivery.id}>
                  <th scope="row" id={eventId}>
                    <code>{delivery.eventType}</code>
                    <span className={styles.muted}>
                      <When at={delivery.createdAt} />
                    </span>
                  </th>
                  <td>{delivery.status}</td>
                  <td>{delivery.attempts.length}</td>
                  <td>
                    <When at={lastAttempt?.at ?? null} never="Not yet" />
                  </td>
                  <td>
                    <Answer delivery={delivery} />
                  </td>
                  <td>
                    <Button
                      variant="secondary"
                      aria-describedby={eventId}
                      onClick={() => {
                        if (!resend.isPending)
                          resend.mutate({ params: { webhookId, deliveryId: delivery.id }, body: {} });
                      }}
                    >
                      Resend
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
