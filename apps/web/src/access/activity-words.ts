import type { AuditAction } from "@petstore/contract";

/**
 * What each activity action is called on the page: the one place that turns the API's codes into words
 * for staff. The codes stay the filter's option values (and the URL's `action=`), which integrators and
 * bookmarks use.
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

/** How a sign-in was made (`detail`), in words. */
const DETAIL_WORDS: Readonly<Record<string, string>> = { passkey: "with a passkey", sso: "with single sign-on" };

/** An action's name on the page, e.g. "Key revoked". */
export const activityActionLabel = (action: AuditAction): string => ACTION_LABELS[action];

/** An event's action with its detail, e.g. "Signed in with a passkey"; a detail without words stays in brackets. */
export function activityActionText(action: AuditAction, detail: string | null): string {
  const label = ACTION_LABELS[action];
  if (detail === null) return label;
  const words = DETAIL_WORDS[detail];
  return words ? `${label} ${words}` : `${label} (${detail.replaceAll("_", " ")})`;
}
