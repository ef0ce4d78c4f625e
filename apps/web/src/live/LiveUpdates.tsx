import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { API_ORIGIN } from "../api/api-origin.js";
import { petQueryKeys } from "../api/petstore-client.js";
import { useSession } from "../session/session.js";
import { createLiveEvents } from "./event-stream-reader.js";
import { liveEventSentence } from "./live-event-words.js";
import styles from "./LiveUpdates.module.css";

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
  const [sentence, setSentence] = useState("");

  useEffect(() => {
    const live = createLiveEvents({
      url: `${API_ORIGIN}/v1/events/stream?types=${PET_EVENTS}`,
      token: () => tokens.token(),
      renew: (refused) => tokens.renew(refused),
      onEvent: (event) => {
        void queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
        const said = liveEventSentence(event);
        if (said) setSentence(said);
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
  }, [tokens, queryClient, backgroundCloseMs]);

  return (
    <div aria-live="polite" aria-atomic="true" className={styles.liveUpdate} data-testid="live-updates">
      {sentence}
    </div>
  );
}
