import type { z } from "zod";

/**
 * The contract's schema of an operation's `after` query: an id (listPets, listAuditEvents) or an opaque
 * string (the listings beyond the spec).
 */
export type CursorSchema<Cursor = number> = z.ZodType<Cursor | undefined, z.ZodTypeDef, unknown>;

/**
 * The `after` cursor of the API's `Link: <...>; rel="next"` header (RFC 8288), or
 * undefined on the last page or for a cursor `cursor` (the operation's own
 * schema) refuses. Following the server's link, rather than computing the
 * next id here, keeps the paging rule in one place: the API.
 */
export function nextPageCursor<Cursor = number>(linkHeader: string | null, cursor: CursorSchema<Cursor>): Cursor | undefined {
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
    const parsed = cursor.safeParse(after ?? undefined);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}
