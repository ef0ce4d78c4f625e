import { useEffect } from "react";

// Its own folder, not layout/: sign-in (session/) names the tab too, and
// session must not depend on the signed-in frame.

/** Names the browser tab after the page: the first thing a screen reader says after navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Petstore admin`;
  }, [title]);
}
