import type { Event } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { API_ORIGIN } from "../api/api-origin.js";
import { petQueryKeys, usePetstoreClient, type PetstoreClient } from "../api/petstore-client.js";
import { useSession } from "../session/session.js";
import { createLiveEvents } from "./event-stream-reader.js";
import { liveEventSentence, petIdOf } from "./live-event-words.js";
import styles from "./LiveUpdates.module.css";

/** How long the live region waits for the history's name of who changed a pet before it speaks without it. */
const WHO_WAIT_MS = 1_000;

/**
 * Who made the change `event` reports: its entry in the pet's history (the same time and action), whose
 * `by.name` a caller below scope write does not get. Undefined when it cannot say within WHO_WAIT_MS.
 */
async function whoChanged(petstore: PetstoreClient, event: Event): Promise<string | undefined> {
  const petId = petIdOf(event);
  if (petId === undefined) return undefined;
  const asked = petstore.petChanges.listPetHistory
    .query({ params: { petId }, query: { limit: 5 } })
    .then((answer) =>
      answer.status === 200
        ? (answer.body.find((entry) => entry.at === event.timestamp && entry.action === event.type)?.by.name ??
          undefined)
        : undefined,
    )
    .catch(() => undefined);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WHO_WAIT_MS));
  return Promise.race([asked, timeout]);
}

/** A tab in the background keeps its stream this long, then closes it; shown again, it catches up. */
export const BACKGROUND_CLOSE_MS = 60_000;

const PET_EVENTS = "pet.created,pet.updated,pet.deleted,pet.restored";

/**
 * Keeps the pets pages and the Overview current while someone else changes pets: each pet event from
 * the event stream refetches what shows pets (lists, a pet's page and history, the counts), in the
 * background, so neither the focus nor the selection moves, and a polite live region says what changed.
 */
export function LiveUpdates({ backgroundCloseMs = BACKGROUND_CLOSE_MS }: { backgroundCloseMs?: number }) {
  const { tokens } = useSession();
  const queryClient = useQueryClient();
  const petstore = usePetstoreClient();
  const [sentence, setSentence] = useState("");

  useEffect(() => {
    const live = createLiveEvents({
      url: `${API_ORIGIN}/v1/events/stream?types=${PET_EVENTS}`,
      token: () => tokens.token(),
      renew: (refused) => tokens.renew(refused),
      onEvent: (event) => {
        void queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
        // Said once, with who made the change when the pet's history names them in time.
        void whoChanged(petstore, event).then((by) => {
          const said = liveEventSentence(event, by);
          if (said) setSentence(said);
        });
      },
    });
    live.start();
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    const onVisibility = () => {
      clearTimeout(closeTimer);
      if (document.visibilityState === "hidden") closeTimer = setTimeout(() => live.stop(), backgroundCloseMs);
      else live.start();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearTimeout(closeTimer);
      document.removeEventListener("visibilitychange", onVisibility);
      live.stop();
    };
  }, [tokens, queryClient, petstore, backgroundCloseMs]);

  return (
    <div aria-live="polite" aria-atomic="true" className={styles.liveUpdate} data-testid="live-updates">
      {sentence}
    </div>
  );
}
