import type { RequestHandler, Response } from "express";
import { routeMatcher, type ContractRoute } from "./contract-routes.js";
import { isOneOf, isUnder, onlyFor, series } from "./express-tuning/middleware-composition.js";

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
  if (found === undefined)
    throw new Error("no route match ran for this request (matchRoutes is not mounted before it)");
  return (found as ContractRoute | null) ?? undefined;
}

/** A handler of fixed paths outside the contract: `paths` exactly, and every path under one of `prefixes`. */
export interface OffContractPaths {
  paths: readonly string[];
  prefixes?: readonly string[];
  handler: RequestHandler;
}

/**
 * The handlers of paths outside the contract (probes, `/metrics`, the docs), each for its own paths
 * (matched as `onlyFor` matches), for the requests that name no contract operation; a request
 * `matchRoutes` matched skips them all without looking at its path. Each handler's paths and
 * prefixes are checked against the contract once, here: a contract route that also matched one of
 * them would hide it, a wiring fault that throws at start.
 */
export function unlessRouted(routes: readonly ContractRoute[], served: readonly OffContractPaths[]): RequestHandler {
  const routeOf = routeMatcher(routes);
  for (const path of served.flatMap(({ paths, prefixes = [] }) => [...paths, ...prefixes])) {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
      const route = routeOf(method, path);
      if (route) throw new Error(`${method} ${path} is also the contract operation ${route.operation}`);
    }
  }
  const handler = series(
    ...served.map(({ paths, prefixes = [], handler }) => {
      const exact = isOneOf(...paths);
      const under = prefixes.map(isUnder);
      return onlyFor((path) => exact(path) || under.some((isUnderPrefix) => isUnderPrefix(path)), handler);
    }),
  );
  return (req, res, next) => (matchedRoute(res) === undefined ? handler(req, res, next) : next());
}

/**
 * `handler` for the requests under the API's prefixes (`underApi`, given a lower-cased path without
 * its trailing slash, as `onlyFor`): every request `matchRoutes` matched is, without looking at
 * its path again; any other is matched by path, as Express matches a mount path.
 */
export function onlyUnder(underApi: (path: string) => boolean, handler: RequestHandler): RequestHandler {
  const byPath = onlyFor(underApi, handler);
  return (req, res, next) => (matchedRoute(res) !== undefined ? handler(req, res, next) : byPath(req, res, next));
}
