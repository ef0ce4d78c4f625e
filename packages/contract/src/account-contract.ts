import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";
import { Account, Passkey, PasskeyChanges, PasskeyIdParams } from "./staff-schemas.js";

const c = initContract();

/** The signed-in person's own account: their passkeys and sessions. Composed under `/admin/v1` by `adminContract`. */
export const accountContract = c.router({
  getAccount: {
    method: "GET",
    path: "/account",
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Your account",
    description: "The signed-in person, their passkeys and their open browser sessions. A key is refused (403).",
    responses: { 200: Account, 401: ErrorBody, 403: ErrorBody },
  },
  renamePasskey: {
    method: "PATCH",
    path: "/account/passkeys/:passkeyId",
    contentType: "application/json",
    pathParams: PasskeyIdParams,
    body: PasskeyChanges,
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Rename one of your passkeys",
    description: "Gives one of the signed-in person's passkeys a new name.",
    responses: {
      200: Passkey,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  removePasskey: {
    method: "DELETE",
    path: "/account/passkeys/:passkeyId",
    pathParams: PasskeyIdParams,
    body: c.noBody(),
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Remove one of your passkeys",
    description: "Removes one of the signed-in person's passkeys; the last one cannot be removed (400).",
    responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  },
  signOutEverywhere: {
    method: "POST",
    path: "/account/sign-out-everywhere",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Sign out everywhere",
    description: "Ends every browser session of the signed-in person, this one included, and their tokens.",
    responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
});
