import type { Request, Response } from "express";

/**
 * How many rows a list reads for a page of `limit`: one more than asked, so
 * whether a next page exists is known without a count query.
 */
export const rowsToRead = (limit: number): number => limit + 1;

/**
 * The page of `rows` (read with `rowsToRead(limit)`) to answer, writing
 * `Link: <...?limit=N&...filters&after=ID>; rel="next"` when a next page
 * exists. The link keeps every filter that is set, in the order given, and
 * continues after the last row's id. The body stays a plain JSON array.
 */
export function pageWithNextLink<Row extends { id: number }>(
  rows: readonly Row[],
  limit: number,
  filters: Record<string, string | number | undefined>,
  req: Pick<Request, "baseUrl" | "path">,
  res: Pick<Response, "setHeader">,
): Row[] {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length > limit && last)
    res.setHeader("Link", `${pageLink(limit, filters, "after", last.id, req)}; rel="next"`);
  return page;
}

/**
 * `<path?limit=N&...filters&after=ID>` (or `before=ID`): a page of the same listing, every filter that is
 * set kept in the order given.
 */
export function pageLink(
  limit: number,
  filters: Record<string, string | number | undefined>,
  position: "after" | "before",
  id: number,
  req: Pick<Request, "baseUrl" | "path">,
): string {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, String(value));
  query.set(position, String(id));
  return `<${req.baseUrl}${req.path}?${query.toString()}>`;
}
