import type { RequestHandler } from "express";

/**
 * `handler` (a Router) for the requests whose path `matches`, given as Express
 * matches route paths: case-insensitive, one trailing slash ignored. Every
 * other request skips it without walking its routes (a regex match each, and
 * the Router's own bookkeeping, per request).
 */
export function onlyFor(matches: (path: string) => boolean, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    return matches(path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path) ? handler(req, res, next) : next();
  };
}

export const isOneOf = (...paths: string[]) => {
  const set = new Set(paths.map((path) => path.toLowerCase()));
  return (path: string) => set.has(path);
};

export const isUnder = (prefix: string) => {
  const lower = prefix.toLowerCase();
  return (path: string) => path === lower || path.startsWith(`${lower}/`);
};

/**
 * `handlers` in order, as one Express layer: `next()` goes to the following
 * one, `next(error)` (or a throw) leaves for the error handlers, the last one's
 * `next()` to the app's next layer. For plain middleware and Routers that only
 * call `next()` or `next(error)`; `next("route")` counts as `next()`, as Express
 * does for middleware.
 */
export function series(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== "route") return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
