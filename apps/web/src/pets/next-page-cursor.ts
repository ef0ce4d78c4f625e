import { ListPetsQuery } from "@petstore/contract";

/**
 * The `after` id of the API's `Link: <...>; rel="next"` header (RFC 8288), or
 * undefined on the last page. Following the server's link, rather than
 * computing the next id here, keeps the paging rule in one place: the API.
 */
export function nextPageCursor(linkHeader: string | null): number | undefined {
  if (!linkHeader) return undefined;
  for (const link of linkHeader.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(link);
    if (!match) continue;
    const [, target = "", parameters = ""] = match;
    const isNext = parameters
      .split(";")
      .some((parameter) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(parameter)?.[1]?.split(/\s+/).includes("next"));
    if (!isNext) continue;
    // The target is relative to the API; any base will do to read its query.
    const after = new URL(target, "http://api.invalid").searchParams.get("after");
    const parsed = ListPetsQuery.shape.after.safeParse(after ?? undefined);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}
