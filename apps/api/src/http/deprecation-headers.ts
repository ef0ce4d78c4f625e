import type { RequestHandler } from "express";
import type { ContractRoute } from "./contract-routes.js";
import { matchedRoute } from "./matched-route.js";

/**
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the successor `Link` on
 * every response of a deprecated route (the one `matchRoutes` found). Mount
 * it before the key check, so a 401 carries them too.
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
  return (_req, res, next) => {
    const route = matchedRoute(res);
    const headers = route && headersByRoute.get(route);
    if (headers) for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
