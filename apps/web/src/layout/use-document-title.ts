import { useEffect } from "react";

/** Names the browser tab after the page: the first thing a screen reader says after navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Petstore admin`;
  }, [title]);
}
