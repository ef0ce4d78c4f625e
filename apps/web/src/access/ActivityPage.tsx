import { AUDIT_ACTIONS, AuditAction, ListAuditEventsQuery, type AuditEvent } from "@petstore/contract";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { ButtonLink } from "../design-system/Button.js";
import { SelectField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { webhookPath } from "../navigation/app-paths.js";
import { activityActionLabel, activitySentence } from "./activity-words.js";
import { activityLink, readActivityView, type ActivityView } from "./activity-view.js";
import { When } from "./When.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import pager from "../design-system/Pager.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./ActivityPage.module.css";

/** `/activity` (admin keys only): the audit log, newest first, filtered by action. */
export function ActivityPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const view = readActivityView(searchParams);
  useDocumentTitle(view.action ? `Activity: ${activityActionLabel(view.action)}` : "Activity");

  return (
    <div className={adminPage.page}>
      <div>
        <h1>Activity</h1>
        <p className={formStyles.intro}>
          Who signed in and how, who added pets, who invited or disabled staff, who created or revoked keys, and who
          changed webhook endpoints, newest first. People are named as themselves; keys by their name.
        </p>
      </div>
      <Panel aria-label="Activity log">
        <div className={styles.filters}>
          <SelectField
            label="Action"
            value={view.action ?? ""}
            onChange={(event) => {
              const action = AuditAction.safeParse(event.target.value);
              // A new filter starts again from the newest event.
              navigate(activityLink({ action: action.success ? action.data : undefined, after: undefined }));
            }}
          >
            <option value="">All</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {activityActionLabel(action)}
              </option>
            ))}
          </SelectField>
        </div>
        <EventList view={view} />
      </Panel>
    </div>
  );
}

function EventList({ view }: { view: ActivityView }) {
  const access = useAccessClient();
  const eventsQuery = access.activity.listAuditEvents.useQuery({
    queryKey: accessQueryKeys.eventPage(view.action, view.after),
    queryData: {
      query: {
        ...(view.action ? { action: view.action } : {}),
        ...(view.after !== undefined ? { after: view.after } : {}),
      },
    },
  });

  if (eventsQuery.isError || isWaitingOutOutage(eventsQuery)) {
    return <LoadFailure title="The activity could not be loaded." query={eventsQuery} />;
  }
  if (eventsQuery.isPending) return <p aria-busy="true">Loading activity…</p>;

  const { body: events, headers } = eventsQuery.data;
  const firstPage = activityLink({ ...view, after: undefined });
  if (events.length === 0) {
    return (
      <Notice
        tone="info"
        action={view.after !== undefined ? <ButtonLink to={firstPage}>First page</ButtonLink> : undefined}
      >
        <p>
          {view.after !== undefined
            ? "No more events."
            : view.action
              ? `No “${activityActionLabel(view.action)}” events yet.`
              : "Nothing has happened yet."}
        </p>
      </Notice>
    );
  }

  const nextAfter = nextPageCursor(headers.get("link"), ListAuditEventsQuery.shape.after);
  return (
    <>
      <EventTable events={events} />
      <div className={pager.pager}>
        <p className={pager.summary}>{events.length === 1 ? "1 event" : `${events.length} events`}</p>
        <div className={pager.pagerLinks}>
          {view.after !== undefined && <ButtonLink to={firstPage}>First page</ButtonLink>}
          {nextAfter !== undefined && (
            <ButtonLink to={activityLink({ ...view, after: nextAfter })}>Next page</ButtonLink>
          )}
        </div>
      </div>
    </>
  );
}

function EventTable({ events }: { events: AuditEvent[] }) {
  return (
    <div className={table.scroller}>
      <table className={table.table} aria-label="Activity">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>
                <When at={event.at} />
              </td>
              <td>
                <EventSentence event={event} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The event's sentence (activity-words.ts), its target linked to the pet's or the endpoint's page. */
function EventSentence({ event }: { event: AuditEvent }) {
  const targetPath =
    event.target.type === "pet"
      ? `/pets/${event.target.id}`
      : event.target.type === "webhook"
        ? webhookPath(event.target.id)
        : undefined;
  return (
    <>
      {activitySentence(event).map((part, index) =>
        typeof part === "string" ? (
          part
        ) : targetPath ? (
          <Link key={index} to={targetPath}>
            {part.target}
          </Link>
        ) : (
          part.target
        ),
      )}
    </>
  );
}
