import type { z } from "zod";

/**
 * The contract's schema of an operation's `after` query: an id (listPets, listAuditEvents) or an opaque
 * string (the listings beyond the spec).
 */
export type CursorSchema<Cursor = number> = z.ZodType<Cursor | undefined, z.ZodTypeDef, unknown>;

/**
 * The value of `parameter` in the target of the API's `Link: <...>; rel="<rel>"` header (RFC 8288), or
 * undefined when there is no such link or `cursor` (the operation's own schema) refuses the value.
 */
export function linkCursor<Cursor = number>(
  linkHeader: string | null,
  rel: string,
  parameter: string,
  cursor: CursorSchema<Cursor>,
): Cursor | undefined {
  if (!linkHeader) return undefined;
  for (const link of linkHeader.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(link);
    if (!match) continue;
    const [, target = "", parameters = ""] = match;
    const isRel = parameters
      .split(";")
      .some((parameter) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(parameter)?.[1]?.split(/\s+/).includes(rel));
    if (!isRel) continue;
    // The target is relative to the API; any base will do to read its query.
    const value = new URL(target, "http://api.invalid").searchParams.get(parameter);
    const parsed = cursor.safeParse(value ?? undefined);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}

/**
 * The `after` cursor of the API's `Link: <...>; rel="next"` header (RFC 8288), or
 * undefined on the last page or for a cursor `cursor` (the operation's own
 * schema) refuses. Following the server's link, rather than computing the
 * next id here, keeps the paging rule in one place: the API.
 */
export function nextPageCursor<Cursor = number>(
  linkHeader: string | null,
  cursor: CursorSchema<Cursor>,
): Cursor | undefined {
  return linkCursor(linkHeader, "next", "after", cursor);
}

/**
 * The `before` cursor of the API's `Link: <...>; rel="prev"` header (listPets answers one for a page asked
 * with `before` that has more pets below it), or undefined when there is none.
 */
export function previousPageCursor<Cursor = number>(
  linkHeader: string | null,
  cursor: CursorSchema<Cursor>,
): Cursor | undefined {
  return linkCursor(linkHeader, "prev", "before", cursor);
}
