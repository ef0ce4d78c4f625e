import { ADMIN_API_PATH_PREFIX } from "@petstore/contract";
import express from "express";
import type { Logger } from "pino";
import { ACCESS_OPENAPI_PATH, apiDocs, OPENAPI_PATH } from "./http/api-docs.js";
import { requireApiKey } from "./access/api-key-check.js";
import { IssuedKeys } from "./access/issued-keys.js";
import { ConfiguredKeys, endRotatedKeySessions } from "./access/configured-keys.js";
import { keyUseRecorder } from "./access/key-use.js";
import { API_PREFIX, contractRoutes } from "./http/contract-routes.js";
import { deprecationHeaders } from "./http/deprecation-headers.js";
import { matchedRoute, matchRoutes, onlyUnder, unlessRouted } from "./http/matched-route.js";
import { methodNotAllowed } from "./http/method-not-allowed.js";
import { crossOrigin } from "./http/cross-origin.js";
import type { Database } from "./database.js";
import type { Config } from "./base/env.js";
import { errorHandler, notFound, sendValidationError } from "./http/errors.js";
import { jsonBodyParsers } from "./http/json-body.js";
import { serialiseJsonOnce } from "./http/express-tuning/json-response.js";
import { createMetrics, type Metrics } from "./ops/metrics.js";
import { metricsEndpoint } from "./ops/metrics-endpoint.js";
import { probes } from "./ops/probes.js";
import { NEVER_STOPPING, type StopState } from "./ops/shutdown.js";
import { abuseLimitsFromConfig, type AbuseLimits } from "./access/rate-limit.js";
import { requestLogging } from "./ops/request-logging.js";
import { isUnder, onlyFor, series } from "./http/express-tuning/middleware-composition.js";
import { socketAddressUnlessProxied } from "./http/express-tuning/client-address.js";
import { responseHeaderSets, setHeaders } from "./http/security-headers.js";
import { dispatchOperations } from "./http/operation-dispatch.js";
import { inlineStyleSources, serveWebApp } from "./http/web-app.js";
import type { WebhookSender } from "./webhooks/sender.js";
import type { SingleSignOnOptions } from "./sso/single-sign-on.js";
import { createRoot } from "./root.js";
import { createEventLog } from "./events/event-log.js";
import { createEventStreams, type EventStreams } from "./events/event-streams.js";

export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
  /** Built from `config` when not given; pass one to connect other counters to it. */
  metrics?: Metrics;
  /** Made from config when absent; a caller that passes them owns their close(). */
  abuseLimits?: AbuseLimits;
  /** Whether the process is stopping (ops/shutdown.ts): `/readyz` and the metrics read it. Never, when not given. */
  stopState?: StopState;
  /** The process's webhook sender, told when a test event or a resend is due now; none in tests that do not send. */
  webhookSender?: Pick<WebhookSender, "poke">;
  /** The wall clock (ms since the epoch) of sessions and tokens; tests move it. */
  now?: () => number;
  /**
   * How single sign-on reaches the identity provider; default the global fetch. In-process tests pass one
   * that trusts their throwaway certificate authority (a spawned API gets NODE_EXTRA_CA_CERTS instead).
   */
  oidcFetch?: SingleSignOnOptions["fetch"];
  /** The process's event streams (streamEvents): main.ts ends them at the drain's end; made here when not given. */
  eventStreams?: EventStreams;
}

/** The process's event streams on its database, STREAM_MAX at most. */
export function createAppEventStreams(config: Config, database: Database, logger: Logger): EventStreams {
  return createEventStreams({
    log: createEventLog(database.sql),
    max: config.streamMax,
    onError: (error) => logger.warn({ err: error }, "event streams: reading the event log failed; retrying"),
  });
}

/** Wiring only: each concern is a module of its own, in the order a request meets them. */
export function createApp({
  config,
  logger,
  database,
  metrics: givenMetrics,
  abuseLimits: givenLimits,
  stopState = NEVER_STOPPING,
  webhookSender,
  now = Date.now,
  oidcFetch,
  eventStreams: givenStreams,
}: AppDeps): express.Express {
  const eventStreams = givenStreams ?? createAppEventStreams(config, database, logger);
  const metrics =
    givenMetrics ??
    createMetrics({
      database,
      stopState,
      enabled: config.metricsToken !== undefined,
      webhooks: database.webhooks,
      eventStreams,
    });
  const abuseLimits =
    givenLimits ?? abuseLimitsFromConfig(config, logger, { onStoreFallback: metrics.limiterStoreFellBack });
  const headers = responseHeaderSets({
    production: config.nodeEnv === "production",
    docsServerUrls: config.servers.map((server) => server.url),
    appStyleSources: config.webDistDir ? inlineStyleSources(config.webDistDir) : [],
  });
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.set("etag", false);
  serialiseJsonOnce(app);
  socketAddressUnlessProxied(app);

  const underV1 = isUnder(API_PREFIX);
  const underAdmin = isUnder(ADMIN_API_PATH_PREFIX);
  const underApi = (path: string) => underV1(path) || underAdmin(path);
  const issuedKeys = new IssuedKeys({
    repository: database.access,
    now,
    runInBackground: database.inBackground,
    onRefreshFailed: (error) =>
      logger.warn({ err: error }, "issued keys: refresh failed; retrying at the next request"),
  });
  // Both reads run as background work, so that closing the database waits for them.
  const configuredKeys = new ConfiguredKeys(config.apiKeys, {
    keyFingerprintSalt: () => database.inBackground(() => database.access.keyFingerprintSalt()),
  });
  // Sessions of keys rotated out of API_KEYS end at start: refused here at once (by fingerprint), and on
  // every other replica within 2 s of this write. A failed write leaves them refused here all the same.
  database
    .inBackground(() => endRotatedKeySessions(configuredKeys, database.access, now))
    .then(
      (ended) =>
        ended > 0 && logger.info({ ended }, "ended the browser sessions of configured keys no longer in API_KEYS"),
      (error: unknown) =>
        logger.warn({ err: error }, "could not end the browser sessions of configured keys no longer in API_KEYS"),
    );
  // Every operation's handler, one router per feature (root.ts), and the routes the layers below read.
  const root = createRoot({
    config,
    database,
    metrics,
    abuseLimits,
    issuedKeys,
    configuredKeys,
    webhookSender,
    now,
    oidcFetch,
    eventStreams,
    isStopping: () => stopState.stopping,
    // One line per stream, when it ends: its request's line says when it began.
    onStreamEnded: (summary) =>
      logger.info(
        { stream: summary },
        `event stream ended (${summary.reason}) after ${summary.durationMs} ms, ${summary.eventsSent} event(s) sent`,
      ),
  });
  const v1Routes = contractRoutes(root.v1.routes);
  const allRoutes = [...v1Routes, ...contractRoutes(root.admin.routes)];
  const recordKeyUse = keyUseRecorder({
    repository: database.access,
    runInBackground: database.inBackground,
    onFailed: (error) => logger.warn({ err: error }, "issued keys: recording a key's last use failed"),
  });
  // One Express layer for what every request meets first: each layer costs a
  // walk of the app's stack and a `next` per request. In the order a request meets them.
  app.use(
    series(
      // The contract operation, matched once: the metrics, the deprecation headers and the scope check read it.
      matchRoutes(allRoutes),
      // The request's log line and its metrics, from one listener at the response's end.
      requestLogging(app, logger, metrics.observeResponse),
      // Every response starts as an API response; the docs and the admin app set their own when they answer.
      setHeaders(headers.api),
      crossOrigin(config.corsOrigins, allRoutes),
      // Each Router below is walked only by the requests it can answer (see `onlyFor`); a contract
      // operation's request (every one the hot path serves) does not look at their paths.
      unlessRouted(allRoutes, [
        { paths: ["/healthz", "/readyz"], handler: probes(database, stopState) },
        { paths: ["/metrics"], handler: metricsEndpoint(metrics, config.metricsToken, abuseLimits.authFailures) },
        {
          paths: [OPENAPI_PATH, ACCESS_OPENAPI_PATH],
          prefixes: ["/docs"],
          handler: apiDocs(config.servers, headers.docs),
        },
      ]),
      deprecationHeaders(v1Routes),
    ),
  );
  // The key check covers every path under the two prefixes, an unknown one too (401 before 404). Not
  // mounted at them: a mount rewrites req.url and req.baseUrl on the way in and back, per request.
  app.use(
    onlyUnder(
      underApi,
      requireApiKey({
        configuredKeys,
        authFailures: abuseLimits.authFailures,
        requestsPerKey: abuseLimits.requestsPerKey,
        onRejected: metrics.limitRejected,
        issuedKeys,
        recordKeyUse,
        operationOf: matchedRoute,
      }),
    ),
  );
  // Enters its Router only for a method that some route takes a JSON body with (not GET).
  app.use(jsonBodyParsers(allRoutes));
  // Every contract operation, in one layer: the operation matched at the top is called directly.
  app.use(
    dispatchOperations([root.v1, root.admin], {
      responseValidation: config.validateResponses,
      onInvalidRequest: sendValidationError,
    }),
  );
  app.use(onlyFor(underApi, methodNotAllowed(allRoutes)));
  if (config.webDistDir) app.use(serveWebApp(config.webDistDir, headers));

  app.use(notFound);
  app.use(errorHandler({ onStorageFault: metrics.storageFault }));
  return app;
}
