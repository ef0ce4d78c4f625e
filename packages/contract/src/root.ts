import { initContract } from "@ts-rest/core";
import { accountContract } from "./account-contract.js";
import { activityContract } from "./activity-contract.js";
import { keysContract } from "./keys-contract.js";
import { passkeysContract } from "./passkeys-contract.js";
import { petChangesContract } from "./pet-changes-contract.js";
import { API_PATH_PREFIX, petsContract } from "./petstore-contract.js";
import { ErrorBody } from "./schemas.js";
import { sessionContract } from "./session-contract.js";
import { categoriesContract, storeContract } from "./store-contract.js";
import { eventsContract } from "./events-contract.js";
import { singleSignOnContract } from "./single-sign-on-contract.js";
import { staffContract } from "./staff-contract.js";
import { webhooksContract } from "./webhooks-contract.js";

const c = initContract();

export const ADMIN_API_PATH_PREFIX = "/admin/v1";

/** What every operation of both roots answers besides its own: produced around it (key check, limits, faults). */
const COMMON_RESPONSES = { 429: ErrorBody, 500: ErrorBody, 503: ErrorBody };

/**
 * The API under `/v1`, one nested contract per tag: the spec's own (`pets`), then each contract beyond
 * it. Its OpenAPI document is `/v1/openapi.json` (openapi.ts); the API serves it (apps/api/src/root.ts),
 * the admin app calls it through one typed client.
 */
export const v1Contract = c.router(
  {
    pets: petsContract,
    petChanges: petChangesContract,
    categories: categoriesContract,
    store: storeContract,
    events: eventsContract,
  },
  { pathPrefix: API_PATH_PREFIX, strictStatusCodes: true, commonResponses: COMMON_RESPONSES },
);
export type V1Contract = typeof v1Contract;

/**
 * The staff operations under `/admin/v1`, one nested contract per feature, each in a file of its own. Not
 * part of the interface spec: a document of its own (`/admin/v1/openapi.json`, access-openapi.ts).
 * Operation names are the routes' keys: unique across both roots (operationIds), never written elsewhere.
 */
export const adminContract = c.router(
  {
    session: sessionContract,
    keys: keysContract,
    activity: activityContract,
    webhooks: webhooksContract,
    staff: staffContract,
    account: accountContract,
    passkeys: passkeysContract,
    singleSignOn: singleSignOnContract,
  },
  { pathPrefix: ADMIN_API_PATH_PREFIX, strictStatusCodes: true, commonResponses: COMMON_RESPONSES },
);
export type AdminContract = typeof adminContract;

/**
 * The spec's three operations under `/v1`, flat, as client developers have imported them since the first
 * release (`initClient(petstoreContract)`, `client.createPet(...)`): kept stable for them. `v1Contract`
 * holds these and the operations beyond the spec.
 */
export const petstoreContract = v1Contract.pets;
