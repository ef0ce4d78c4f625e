import type { RequestHandler } from "express";
import { routeMatcher, type ContractRoute } from "./contract-routes.js";

/**
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the successor `Link` on
 * every response of a deprecated route. Mount it before the key check, so a
 * 401 carries them too.
 */
export function deprecationHeaders(routes: readonly ContractRoute[]): RequestHandler {
  const headersByRoute = new Map<ContractRoute, (readonly [string, string])[]>();
  for (const route of routes) {
    const { deprecation } = route;
    if (!deprecation) continue;
    headersByRoute.set(route, [
      ["Deprecation", `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`],
      ["Sunset", deprecation.sunsetAt.toUTCString()],
      ["Link", `<${deprecation.successor}>; rel="successor-version"`],
    ]);
  }
  const routeOf = routeMatcher([...headersByRoute.keys()]);
  return (req, res, next) => {
    const route = routeOf(req.method, req.path);
    const headers = route && headersByRoute.get(route);
    if (headers) for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
