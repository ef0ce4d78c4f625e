import { operationsOf, type Operations, type PinnedRequestParsers } from "@petstore/contract";
import {
  checkZodSchema,
  isAppRoute,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  TsRestResponseError,
  validateResponse,
  type AppRoute,
  type AppRouter,
} from "@ts-rest/core";
import { RequestValidationError, type createExpressEndpoints } from "@ts-rest/express";
import type { Request, RequestHandler, Response } from "express";
import { Stream } from "node:stream";
import { pathParamsReader } from "./contract-routes.js";
import { matchedRoute } from "./matched-route.js";

/** A contract's handlers as ts-rest types them (`initServer().router(contract, { ... })`). */
export type ContractImplementation<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];

/** One contract served: its routes and their handlers by operation name, and pinned parsers for the hottest of its request parts. */
export interface ServedContract {
  routes: Readonly<Record<string, AppRoute>>;
  implementation: Readonly<Record<string, unknown>>;
  pinned: Readonly<Record<string, PinnedRequestParsers | undefined>>;
}

/** The handlers of a contract whose features are nested contracts, by operation name (as `operationsOf` names routes). */
function handlersOf(contract: AppRouter, implementation: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(contract).flatMap(([name, entry]) =>
      isAppRoute(entry)
        ? [[name, implementation[name]]]
        : Object.entries(handlersOf(entry, (implementation[name] ?? {}) as Record<string, unknown>)),
    ),
  );
}

/**
 * A contract and its handlers (nested as its features are), typed together as ts-rest types them; `pinned`: per
 * operation, parsers that stand in for a schema on the inputs they take (`@petstore/contract`'s pinned-parsers).
 */
export function servedContract<T extends AppRouter>(
  contract: T,
  implementation: ContractImplementation<T>,
  pinned: { readonly [K in keyof Operations<T>]?: PinnedRequestParsers } = {},
): ServedContract {
  return {
    routes: operationsOf(contract) as Record<string, AppRoute>,
    implementation: handlersOf(contract, implementation as Record<string, unknown>),
    pinned: pinned as Readonly<Record<string, PinnedRequestParsers | undefined>>,
  };
}

export interface DispatchOptions {
  /** Parse each response with its schema before sending it (development and tests; production leaves it off). */
  responseValidation: boolean;
  /** Answers a request whose params, headers, query or body its route's schemas refuse. */
  onInvalidRequest: (error: RequestValidationError, route: AppRoute, req: Request, res: Response) => void;
}

/** The middleware, and the routes it serves (`GET /v1/pets/:petId`): an inventory for whoever asks what the app serves. */
export type OperationDispatch = RequestHandler & { readonly routes: readonly string[] };

/** The handler ts-rest would call, in either form it takes (a function, or `{ handler, middleware }`). */
type OperationHandler = (input: Record<string, unknown>) => Promise<{ status: number | string; body: unknown }>;

interface Operation {
  route: AppRoute;
  handler: OperationHandler;
  paramsOf: (path: string) => Record<string, string> | undefined;
  pinned: PinnedRequestParsers | undefined;
}

/** A declared schema's parse, pinned first where a pinned parser takes the input; ts-rest's `checkZodSchema` otherwise. */
function checked(
  data: unknown,
  schema: unknown,
  pinned: ((input: unknown) => object | undefined) | undefined,
  passThroughExtraKeys = false,
) {
  const fast = pinned?.(data);
  if (fast === undefined) return checkZodSchema(data, schema, { passThroughExtraKeys });
  return { success: true as const, data: passThroughExtraKeys ? { ...(data as object), ...fast } : fast };
}

/**
 * Serves every operation of `contracts` in one Express layer: the operation
 * `matchRoutes` matched at the top of the app is called directly, with what
 * ts-rest's Express adapter (`createExpressEndpoints`) would give it, and its
 * result is sent as that adapter sends it. The adapter adds an Express route
 * per operation, each two layers deep, walked in turn by every request (a
 * regex each) and entered through ts-rest's generic handler, whose zod calls
 * run megamorphic; here the route is known already, and the hottest request
 * parts go through pinned parsers first. Same checks, same answers:
 * `operation-dispatch.test.ts` sends the same requests through both.
 * docs/decisions/033-operations-dispatched-once.md.
 */
export function dispatchOperations(
  contracts: readonly ServedContract[],
  { responseValidation, onInvalidRequest }: DispatchOptions,
): OperationDispatch {
  const operations = new Map<string, Operation>();
  for (const { routes, implementation, pinned } of contracts) {
    for (const [name, route] of Object.entries(routes)) {
      const given = implementation[name];
      const handler = (typeof given === "function" ? given : (given as { handler?: unknown } | undefined)?.handler) as
        OperationHandler | undefined;
      if (!handler) throw new Error(`operation ${name} has no handler`);
      if ((given as { middleware?: unknown[] }).middleware?.length)
        throw new Error(`operation ${name}: per-route middleware is not served here`);
      if (operations.has(name)) throw new Error(`operation ${name} is in two contracts`);
      operations.set(name, { route, handler, paramsOf: pathParamsReader(route.path), pinned: pinned[name] });
    }
  }

  const serve = async (operation: Operation, req: Request, res: Response) => {
    const { route, pinned } = operation;
    // Set as the Router would: whatever reads req.params later (a log line, an error) sees the same.
    const rawParams = operation.paramsOf(req.path) ?? {};
    req.params = rawParams;
    const params = checked(rawParams, route.pathParams, pinned?.pathParams, true);
    const headers = checked(req.headers, route.headers, pinned?.headers, true);
    const query = checked(req.query, route.query, pinned?.query);
    const body = checked(req.body, "body" in route ? route.body : null, pinned?.body);
    if (!params.success || !headers.success || !query.success || !body.success) {
      const failure = new RequestValidationError(
        params.success ? null : params.error,
        headers.success ? null : headers.error,
        query.success ? null : query.error,
        body.success ? null : body.error,
      );
      return onInvalidRequest(failure, route, req, res);
    }
    let result: { status: number | string; body: unknown };
    try {
      result = await operation.handler({
        params: params.data,
        body: body.data,
        query: query.data,
        headers: headers.data,
        // What ts-rest passes on from multer; this app takes no multipart bodies.
        files: undefined,
        file: undefined,
        req,
        res,
      });
    } catch (error) {
      if (!(error instanceof TsRestResponseError)) throw error;
      result = { status: error.statusCode, body: error.body as unknown };
    }
    const status = Number(result.status);
    if (result.body instanceof Stream) return result.body.pipe(res.status(status));
    const responseBody = responseValidation
      ? validateResponse({ appRoute: route, response: { status, body: result.body } }).body
      : result.body;
    const responseType = route.responses[status];
    if (responseType === undefined) return res.status(status).json(responseBody);
    if (isAppRouteNoBody(responseType)) return res.status(status).end();
    if (isAppRouteOtherResponse(responseType)) {
      res.setHeader("content-type", responseType.contentType);
      return res.status(status).send(responseBody);
    }
    return res.status(status).json(responseBody);
  };

  const dispatch: RequestHandler = (req, res, next) => {
    const matched = matchedRoute(res);
    const operation = matched && operations.get(matched.operation);
    if (!operation) return next();
    serve(operation, req, res).catch(next);
  };
  return Object.assign(dispatch, {
    routes: [...operations.values()].map(({ route }) => `${route.method} ${route.path}`),
  });
}
