import type { Express, Request } from "express";

const ROUTE = Symbol("tsRestRoute");

type Locals = Record<symbol, unknown>;

/**
 * ts-rest's Express adapter writes `req.tsRestRoute` on every request it
 * routes. On an Express request, an own property added after Express swapped
 * the request's prototype gets that one object a hidden class of its own (V8
 * caches no transition for it): a map and descriptor copy, ~1.3 KB of garbage
 * per request by the sampling heap profiler. An accessor on this app's request
 * prototype takes the write instead and keeps the route in `res.locals`, a
 * dictionary object, where a new key costs a hash insert. Reads return it, as
 * ts-rest documents.
 */
export function keepTsRestRouteInLocals(app: Express): void {
  Object.defineProperty(app.request, "tsRestRoute", {
    configurable: true,
    enumerable: true,
    get(this: Request): unknown {
      return (this.res?.locals as Locals | undefined)?.[ROUTE];
    },
    set(this: Request, route: unknown) {
      const locals = this.res?.locals as Locals | undefined;
      if (locals) locals[ROUTE] = route;
      // No response yet (a request used outside Express's handling): an own property, as without this accessor.
      else Object.defineProperty(this, "tsRestRoute", { value: route, writable: true, configurable: true, enumerable: true });
    },
  });
}

/**
 * ts-rest's Express adapter reads `req.files` and `req.file` (what multer would
 * set) for every request it routes, to pass them to the handler; this app
 * takes no multipart bodies, so both are always undefined. Absent, each read is
 * a lookup that misses on the request and on each of its seven prototypes
 * (app, Express, IncomingMessage, Readable, Stream, EventEmitter, Object), at a
 * megamorphic site: V8 walks that chain in its runtime, per read (about 3 µs
 * a request in a `perf` profile of getPet; docs/decisions/031-response-tallies-and-routed-requests.md).
 * Found as undefined on the app's request prototype, the read stops there.
 */
export function answerTsRestFileReads(app: Express): void {
  for (const name of ["files", "file"]) {
    if (name in app.request) continue;
    Object.defineProperty(app.request, name, { configurable: true, enumerable: false, writable: true, value: undefined });
  }
}
