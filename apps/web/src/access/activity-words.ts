import type { AuditAction, AuditEvent } from "@petstore/contract";

/**
 * What the Activity page says: the one place that turns the API's action codes into words for staff,
 * both each action's short name (the filter's option labels, "Key revoked") and each event's whole
 * sentence ("Ana revoked the key Front desk", "Rex was added by Ana"). The codes stay the filter's option
 * values (and the URL's `action=`), which integrators and bookmarks use; they are never shown.
 */
const ACTION_LABELS: Record<AuditAction, string> = {
  "pet.created": "Pet added",
  "pet.updated": "Pet changed",
  "pet.deleted": "Pet deleted",
  "pet.restored": "Pet restored",
  "pet.purged": "Pet removed for good",
  "category.created": "Category added",
  "category.renamed": "Category renamed",
  "key.created": "Key created",
  "key.revoked": "Key revoked",
  "key.signed_in": "Signed in with a key",
  "staff.invited": "Person invited",
  "staff.signed_in": "Signed in",
  "staff.role_changed": "Role changed",
  "staff.disabled": "Person disabled",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "session.ended": "Session ended",
  "webhook.created": "Endpoint added",
  "webhook.updated": "Endpoint changed",
  "webhook.deleted": "Endpoint deleted",
  "webhook.secret_rotated": "Endpoint secret rotated",
};

/** An action's name on the page, e.g. "Key revoked". */
export const activityActionLabel = (action: AuditAction): string => ACTION_LABELS[action];

/**
 * One piece of an event's sentence: words, or the target's label (`{ target }`), which the page may link
 * to the target (a pet's or an endpoint's page).
 */
export type SentencePart = string | { target: string };

export type ActivityFacts = Pick<AuditEvent, "action" | "actor" | "target" | "detail">;

/** How a person signed in (`detail` of `staff.signed_in`). */
const SIGN_IN_WORDS: Readonly<Record<string, string>> = { passkey: " with a passkey", sso: " with single sign-on" };

/** A role (`detail` of `staff.invited` and `staff.role_changed`): read, write or admin, as the Staff page says them. */
const roleWords = (detail: string | null, words: string): string =>
  detail === null ? "" : `${words}${detail.replaceAll("_", " ")}`;

/**
 * An event as a sentence, from its fields: who (the actor's name then), did what (the action, with its
 * detail), to what (the target's label then). E.g. `["Ana", " revoked the key ", { target: "Front desk" }]`.
 */
export function activitySentence({ action, actor, target, detail }: ActivityFacts): SentencePart[] {
  const who = actor.name;
  const it = { target: target.label };
  // The person acted on themselves (signing out everywhere, a passkey of their own, a role read at sign-in).
  const self = target.type === "staff" && actor.staffId === target.id;
  switch (action) {
    case "pet.created":
      return [it, ` was added by ${who}`];
    case "pet.updated":
      return [it, ` was changed by ${who}`];
    case "pet.deleted":
      return [it, ` was deleted by ${who}`];
    case "pet.restored":
      return [it, ` was restored by ${who}`];
    case "pet.purged":
      return [it, ` was removed for good by ${who}`];
    case "category.created":
      return [`${who} added the category `, it];
    case "category.renamed":
      return [`${who} renamed a category to `, it];
    case "key.created":
      return [`${who} created the key `, it];
    case "key.revoked":
      return [`${who} revoked the key `, it];
    case "key.signed_in":
      return ["Someone signed in with the key ", it];
    case "staff.invited":
      return [`${who} invited `, it, roleWords(detail, " with the role ")];
    case "staff.signed_in":
      return [`${who} signed in${detail === null ? "" : (SIGN_IN_WORDS[detail] ?? "")}`];
    case "staff.role_changed":
      return self
        ? [it, `'s role changed${roleWords(detail, " to ")}`]
        : [`${who} changed the role of `, it, roleWords(detail, " to ")];
    case "staff.disabled":
      return [`${who} disabled `, it];
    case "passkey.added":
      return self ? [`${who} added a passkey`] : [`${who} added a passkey for `, it];
    case "passkey.removed":
      return self ? [`${who} removed a passkey`] : [`${who} removed a passkey of `, it];
    case "session.ended":
      if (self) return [`${who} signed out everywhere`];
      return target.type === "key"
        ? [`${who} ended a browser session of the key `, it]
        : [`${who} ended a session of `, it];
    case "webhook.created":
      return [`${who} added the endpoint `, it];
    case "webhook.updated":
      return [`${who} changed the endpoint `, it];
    case "webhook.deleted":
      return [`${who} deleted the endpoint `, it];
    case "webhook.secret_rotated":
      return [`${who} rotated the secret of the endpoint `, it];
  }
}

/** An event's sentence as plain text, e.g. "Ana revoked the key Front desk". */
export const activitySentenceText = (event: ActivityFacts): string =>
  activitySentence(event)
    .map((part) => (typeof part === "string" ? part : part.target))
    .join("");
