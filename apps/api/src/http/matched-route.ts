import type { RequestHandler, Response } from "express";
import { routeMatcher, type ContractRoute } from "./contract-routes.js";

// A symbol key: nothing but these functions can read or write it.
const MATCHED_ROUTE = Symbol("matchedRoute");
type Locals = Record<symbol, unknown>;

/**
 * Finds the contract operation a request names, once, before anything else
 * runs: the metrics label, the deprecation headers and an issued key's scope
 * check all read it (`matchedRoute`). Matched from `req.path` here, at the
 * top of the app, where it is the parse of the whole request target that
 * Express's router keeps and routes by (an absolute-form target, a fragment,
 * another letter case or a trailing slash name the route the router will
 * choose); a middleware mounted under a path would see a shortened URL.
 */
export function matchRoutes(routes: readonly ContractRoute[]): RequestHandler {
  const routeOf = routeMatcher(routes);
  return (req, res, next) => {
    // null, not undefined, for "matched nothing": undefined means this never ran.
    (res.locals as Locals)[MATCHED_ROUTE] = routeOf(req.method, req.path) ?? null;
    next();
  };
}

/**
 * The contract route of the request, or undefined when it names none (an
 * unknown path or method, a probe, the docs). Throws when `matchRoutes` never
 * ran for it: a wiring fault, which must not pass for "no operation" (the
 * scope check would let it through).
 */
export function matchedRoute(res: Response): ContractRoute | undefined {
  const found = (res.locals as Locals)[MATCHED_ROUTE];
  if (found === undefined) throw new Error("no route match ran for this request (matchRoutes is not mounted before it)");
  return (found as ContractRoute | null) ?? undefined;
}
