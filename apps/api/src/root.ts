import { adminContract, petstorePinnedParsers, v1Contract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { createActivityRouter } from "./access/activity-router.js";
import type { ConfiguredKeys } from "./access/configured-keys.js";
import type { IssuedKeys } from "./access/issued-keys.js";
import { createKeysRouter } from "./access/keys-router.js";
import type { AbuseLimits } from "./access/rate-limit.js";
import type { Config } from "./base/env.js";
import type { Database } from "./database.js";
import { createEventLog } from "./events/event-log.js";
import { createEventsRouter, type EventsRouterDeps } from "./events/events-router.js";
import type { EventStreams } from "./events/event-streams.js";
import { servedContract, type ServedContract } from "./http/operation-dispatch.js";
import type { Metrics } from "./ops/metrics.js";
import { createPasskeysRouter } from "./passkeys/passkeys-router.js";
import { createPetChanges } from "./pets/pet-changes.js";
import { createPetChangesRouter } from "./pets/pet-changes-router.js";
import { createPetsRouter } from "./pets/pets-router.js";
import { createSingleSignOn, type SingleSignOnOptions } from "./sso/single-sign-on.js";
import { createCategories } from "./store/categories.js";
import { createCategoriesRouter, createStoreRouter } from "./store/store-router.js";
import { createSsoRouter } from "./sso/sso-router.js";
import { createAccountRouter } from "./staff/account-router.js";
import { createSessionRouter } from "./staff/session-router.js";
import { StaffSessions } from "./staff/sessions.js";
import { createStaffRouter } from "./staff/staff-router.js";
import type { WebhookSender } from "./webhooks/sender.js";
import { createWebhooksRouter } from "./webhooks/webhooks-router.js";

const server = initServer();

export interface RootDeps {
  config: Config;
  database: Database;
  metrics: Pick<Metrics, "limitRejected">;
  abuseLimits: AbuseLimits;
  issuedKeys: IssuedKeys;
  configuredKeys: ConfiguredKeys;
  webhookSender: Pick<WebhookSender, "poke"> | undefined;
  now: () => number;
  oidcFetch: SingleSignOnOptions["fetch"] | undefined;
  eventStreams: EventStreams;
  isStopping: () => boolean;
  onStreamEnded: EventsRouterDeps["onStreamEnded"];
}

/**
 * Every contract operation's handler: one router per feature, each in its feature's folder, put together
 * under the two roots of `@petstore/contract` (`v1Contract`, `adminContract`). The compiler refuses a root
 * that misses a feature or an operation. docs/adding-an-operation.md walks a new operation through.
 */
export function createRoot({
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
  isStopping,
  onStreamEnded,
}: RootDeps): { v1: ServedContract; admin: ServedContract } {
  const sessions = new StaffSessions({
    repository: database.staff,
    issuedKeys,
    configuredKeys,
    adminOrigin: config.adminOrigin,
    idleMs: config.sessions.idleMs,
    maxMs: config.sessions.maxMs,
    authFailures: abuseLimits.authFailures,
    sessionTokens: abuseLimits.sessionTokens,
    onRejected: metrics.limitRejected,
    now,
  });
  // Single sign-on needs the admin app's origin too: the redirect URI is under it.
  const singleSignOn =
    config.singleSignOn && config.adminOrigin
      ? createSingleSignOn(config.singleSignOn, {
          adminOrigin: config.adminOrigin,
          now,
          ...(oidcFetch ? { fetch: oidcFetch } : {}),
        })
      : undefined;
  const signInLimits = { signInStarts: abuseLimits.signInStarts, onRejected: metrics.limitRejected };

  const v1 = server.router(v1Contract, {
    pets: createPetsRouter(database.pets, database.sql, { idempotencyTtlMs: config.idempotencyTtlMs }),
    petChanges: createPetChangesRouter(
      createPetChanges(database.sql, {
        idempotencyTtlMs: config.idempotencyTtlMs,
        deletedPetMs: config.operations.retention.deletedPetMs,
        unkeyedUpdate: database.pets.updateUnkeyed,
      }),
    ),
    categories: createCategoriesRouter(createCategories(database.sql)),
    store: createStoreRouter(database.sql),
    events: createEventsRouter({
      log: createEventLog(database.sql),
      streams: eventStreams,
      issuedKeys,
      isStopping,
      now,
      onStreamEnded,
    }),
  });
  const admin = server.router(adminContract, {
    session: createSessionRouter({ sessions }),
    keys: createKeysRouter(database.access, issuedKeys),
    activity: createActivityRouter(database.activity),
    webhooks: createWebhooksRouter({ repository: database.webhooks, rules: config.webhooks, sender: webhookSender }),
    staff: createStaffRouter({ sessions, issuedKeys, adminOrigin: config.adminOrigin }),
    account: createAccountRouter({ sessions, issuedKeys }),
    passkeys: createPasskeysRouter({
      sessions,
      challenges: database.passkeyChallenges,
      adminOrigin: config.adminOrigin,
      ...signInLimits,
    }),
    singleSignOn: createSsoRouter({
      sessions,
      issuedKeys,
      adminOrigin: config.adminOrigin,
      singleSignOn,
      authFailures: abuseLimits.authFailures,
      ...signInLimits,
    }),
  });
  return { v1: servedContract(v1Contract, v1, petstorePinnedParsers), admin: servedContract(adminContract, admin) };
}
