/** What stands in for a page while its code arrives (pages are fetched when first opened). */
export function LoadingPage() {
  return <p aria-busy="true">Loading…</p>;
}
