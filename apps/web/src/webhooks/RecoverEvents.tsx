import type { Webhook } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { describeFailure } from "../api/api-errors.js";
import { webhookPath } from "../navigation/app-paths.js";
import { Button } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./Webhooks.module.css";

/** A `datetime-local` value (the browser's own time zone) this many hours before now. */
export function localDateTimeBefore(now: Date, hours: number): string {
  const at = new Date(now.getTime() - hours * 3_600_000 - now.getTimezoneOffset() * 60_000);
  return at.toISOString().slice(0, 16);
}

/** What a recovery queued, in words. */
export function recoveredSentence(queued: number): string {
  if (queued === 0) return "Nothing to send again: the endpoint has answered every event since then.";
  return `Queued ${queued.toLocaleString("en")} ${queued === 1 ? "event" : "events"} to be sent again.`;
}

/**
 * `Recover events`: every event of the endpoint's types since a time that it has not answered with a
 * 2xx is sent again (recoverWebhook), those raised while it was disabled too; the status says how many.
 */
export function RecoverEvents({ webhook }: { webhook: Webhook }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const [since, setSince] = useState(() => localDateTimeBefore(new Date(), 24));
  const [error, setError] = useState<string | undefined>();
  const recover = access.webhooks.recoverWebhook.useMutation({
    onMutate: () => setError(undefined),
    onSuccess: async ({ body }) => {
      showStatusMessage(recoveredSentence(body.queued), webhookPath(webhook.id));
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.webhooks });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(since);
    if (since === "" || Number.isNaN(at.getTime())) return setError("Since must be a date and time");
    if (at.getTime() > Date.now()) return setError("Since must not be in the future");
    recover.mutate({ params: { webhookId: webhook.id }, body: { since: at.toISOString() } });
  };

  return (
    <form
      className={`${formStyles.form} ${adminPage.narrow}`}
      aria-labelledby="recover-heading"
      onSubmit={submit}
      noValidate
    >
      <h2 id="recover-heading">Recover events</h2>
      <p className={styles.hint}>
        Sends again every event since then that the endpoint has not answered with a 2xx, those raised while it was
        disabled too. Events are kept 30 days.
      </p>
      {recover.isError && (
        <Notice tone="error" role="alert">
          <p>No events were queued. {describeFailure(recover.error)}</p>
        </Notice>
      )}
      <TextField
        label="Since"
        type="datetime-local"
        name="since"
        value={since}
        error={error}
        onChange={(event) => setSince(event.target.value)}
      />
      <div>
        <Button type="submit" aria-busy={recover.isPending || undefined}>
          Recover events
        </Button>
      </div>
    </form>
  );
}
