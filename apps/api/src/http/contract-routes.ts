import { API_PATH_PREFIX, headerDisplayName, operationsOf, v1Contract, type RouteMetadata } from "@petstore/contract";
import type { AppRoute } from "@ts-rest/core";
import { z } from "zod";

/** What the HTTP layer needs to know about one contract operation. */
export interface ContractRoute {
  operation: string;
  method: AppRoute["method"];
  /** Express path, prefix included (ts-rest's `:param` syntax is Express's). */
  path: string;
  /** A mutation whose body the contract declares as JSON: it gets the JSON body parser. */
  takesJsonBody: boolean;
  /** The media types its body may be sent as: `application/json`, and those its metadata adds (`alsoAccepts`). */
  bodyMediaTypes: string[];
  /** Request headers the route's contract declares (lower-case, as Node delivers them). */
  requestHeaders: string[];
  /** Set on a deprecated route: the facts its response headers announce. */
  deprecation: NonNullable<RouteMetadata["deprecation"]> | undefined;
}

/** Every operation of the contract, read from its routes: nothing about routes is written down twice. */
export function contractRoutes(router: Readonly<Record<string, AppRoute>> = operationsOf(v1Contract)): ContractRoute[] {
  return Object.entries(router).map(([operation, route]) => ({
    operation,
    method: route.method,
    path: route.path,
    takesJsonBody:
      route.method !== "GET" &&
      route.method !== "DELETE" &&
      "body" in route &&
      route.body !== undefined &&
      // c.noBody() (restorePet): a marker, not a schema; such a route reads no body, as a GET.
      typeof route.body !== "symbol" &&
      (route.contentType ?? "application/json") === "application/json",
    bodyMediaTypes: ["application/json", ...((route.metadata as RouteMetadata | undefined)?.alsoAccepts ?? [])],
    requestHeaders: route.headers instanceof z.ZodObject ? Object.keys(route.headers.shape as object) : [],
    deprecation: route.deprecated ? (route.metadata as RouteMetadata | undefined)?.deprecation : undefined,
  }));
}

/** The path prefix every operation lives under. */
export const API_PREFIX = API_PATH_PREFIX;

/** The methods each path serves: its operations', HEAD with GET, and OPTIONS (the CORS preflight). */
export function allowedMethodsByPath(routes: readonly ContractRoute[]): Map<string, string[]> {
  const byPath = new Map<string, Set<string>>();
  for (const { path, method } of routes) {
    const methods = byPath.get(path) ?? new Set(["OPTIONS"]);
    methods.add(method);
    if (method === "GET") methods.add("HEAD");
    byPath.set(path, methods);
  }
  return new Map([...byPath].map(([path, methods]) => [path, [...methods].sort()]));
}

/** The methods a browser may send cross-origin: those of the operations. */
export function operationMethods(routes: readonly ContractRoute[]): string[] {
  return [...new Set(routes.map((route) => route.method))].sort();
}

/** The headers a browser may send cross-origin: the key, the body's type, and those the operations declare. */
export function operationRequestHeaders(routes: readonly ContractRoute[]): string[] {
  const declared = new Set(routes.flatMap((route) => route.requestHeaders));
  return ["Authorization", "Content-Type", ...[...declared].map(headerDisplayName)];
}

/**
 * A route path as Express 4 matches it: case-insensitive, an optional trailing slash, each `:name`
 * one segment (a capture group, in the order of `names`).
 */
function compileRoutePath(routePath: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = routePath
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}/?$`, "i"), names };
}

/**
 * The contract route a method and path name, matched as Express matches route
 * paths (case-insensitive, an optional trailing slash, a `:param` is one
 * segment); HEAD is served by a GET route. One regex test per route, compiled
 * once: cheaper per request than walking a Router.
 */
export function routeMatcher(
  routes: readonly ContractRoute[],
): (method: string, path: string) => ContractRoute | undefined {
  const compiled = routes.map((route) => ({
    route,
    methods: route.method === "GET" ? ["GET", "HEAD"] : [route.method],
    pattern: compileRoutePath(route.path).pattern,
  }));
  return (method, path) => {
    // A loop, not `find` with a closure: this runs on every request.
    for (const entry of compiled) if (entry.methods.includes(method) && entry.pattern.test(path)) return entry.route;
    return undefined;
  };
}

/**
 * The path parameters of a request path `routePath` (Express syntax) matches, percent-decoded as Express
 * decodes them (a malformed escape throws Express's URIError, which the errors module answers 400);
 * undefined when the path does not match.
 */
export function pathParamsReader(routePath: string): (path: string) => Record<string, string> | undefined {
  const { pattern, names } = compileRoutePath(routePath);
  return (path) => {
    const found = pattern.exec(path);
    if (!found) return undefined;
    const params: Record<string, string> = {};
    for (let index = 0; index < names.length; index++) params[names[index]!] = decodeParam(found[index + 1]!);
    return params;
  };
}

/** Express 4's `decode_param`: a malformed escape is a URIError naming the value, with status 400. */
function decodeParam(value: string): string {
  // Without a `%` there is nothing to decode: the same string back, without the call.
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError)
      Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
    throw error;
  }
}

export function routerMethod(method: AppRoute["method"]): "get" | "post" | "put" | "patch" | "delete" {
  return method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
}
