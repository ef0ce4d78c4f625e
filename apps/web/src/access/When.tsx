const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A moment the API gave (ISO 8601), in the reader's time zone; `never` when there is none. */
export function When({ at, never = "Never" }: { at: string | null; never?: string }) {
  if (at === null) return <>{never}</>;
  return <time dateTime={at}>{FORMAT.format(new Date(at))}</time>;
}
