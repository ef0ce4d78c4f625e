import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { When } from "./When.js";

/**
 * Who added a pet and when: its `pet.created` event. Only for keys that may
 * read the activity log (the caller checks): others would get a 403.
 */
export function AddedBy({ petId, className }: { petId: number; className?: string }) {
  const access = useAccessClient();
  const eventQuery = access.activity.listAuditEvents.useQuery({
    queryKey: accessQueryKeys.petCreated(petId),
    queryData: { query: { action: "pet.created", targetType: "pet", targetId: petId, limit: 1 } },
  });
  const event = eventQuery.data?.body[0];
  return (
    <p className={className} aria-busy={eventQuery.isPending || undefined}>
      {eventQuery.isPending ? (
        "Looking up who added this pet…"
      ) : eventQuery.isError ? (
        "Who added this pet could not be loaded."
      ) : event ? (
        <>
          Added by {event.actor.name} on <When at={event.at} />
        </>
      ) : (
        "Who added this pet is not recorded: it is older than the activity log."
      )}
    </p>
  );
}
