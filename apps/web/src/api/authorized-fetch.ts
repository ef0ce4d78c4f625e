import { adminContract } from "@petstore/contract";
import { initClient, tsRestFetchApi, type ApiFetcher } from "@ts-rest/core";
import { SessionEnded, TokenRequestFailed, type TokenAnswer, type TokenManager } from "./token-manager.js";
import { API_ORIGIN, bearer } from "./api-origin.js";

/**
 * The operations that take the session cookie or nothing (a token, sign-out, a key's sign-in, an
 * invitation): sent with the browser's cookies for this origin and no bearer. A POST carries an
 * `Origin` header, which the API checks.
 */
export const cookieClient = initClient(adminContract, {
  baseUrl: API_ORIGIN,
  credentials: "same-origin",
  validateResponse: true,
});

/** `POST /admin/v1/session/token`, as the token manager asks for it. */
export function requestSessionToken() {
  return cookieClient.session.createSessionToken({ body: {} });
}

/**
 * The fetcher of every client of `/v1` and `/admin/v1`: it puts the session's token on the request as
 * `Authorization: Bearer pst_…`, and when the API refuses it (401), renews it once and sends the request
 * once more (a create keeps its `Idempotency-Key`, so the retry replays rather than duplicates).
 * A request that already carries an `Authorization` header is sent as it is.
 *
 * When the session has ended (the token endpoint says 401), the request fails with that 401, so the app
 * goes back to sign-in as for any 401; the reason is the token manager's.
 */
export function authorizedFetcher(tokens: TokenManager): ApiFetcher {
  const withToken = (args: Parameters<ApiFetcher>[0], token: string) =>
    tsRestFetchApi({ ...args, headers: { ...args.headers, authorization: bearer(token) } });

  type Outcome = { token: string; failure?: never } | { failure: TokenAnswer; token?: never };
  const tokenOrFailure = async (get: () => Promise<string>): Promise<Outcome> => {
    try {
      return { token: await get() };
    } catch (error) {
      if (error instanceof SessionEnded) return { failure: error.response };
      if (error instanceof TokenRequestFailed)
        return { failure: { status: error.status, body: error.body, headers: error.headers } };
      throw error;
    }
  };

  return async (args) => {
    if (Object.keys(args.headers).some((name) => name.toLowerCase() === "authorization")) return tsRestFetchApi(args);
    const first = await tokenOrFailure(() => tokens.token());
    if (first.failure) return first.failure;
    const answer = await withToken(args, first.token);
    if (answer.status !== 401) return answer;
    const renewed = await tokenOrFailure(() => tokens.renew(first.token));
    if (renewed.failure) return renewed.failure;
    return withToken(args, renewed.token);
  };
}

function failureResponse(error: unknown): Response {
  const answer = error instanceof SessionEnded ? error.response : error instanceof TokenRequestFailed ? error : null;
  if (!answer) throw error;
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
}

/**
 * `fetch` with the same token handling, for code that calls the API without the typed clients (the
 * passkey ceremonies of the Account page). The request's body must be one that can be sent twice.
 */
export function authorizedFetch(tokens: TokenManager): typeof fetch {
  return async (input, init = {}) => {
    const send = (token: string) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", bearer(token));
      return fetch(input, { ...init, headers });
    };
    let token: string;
    try {
      token = await tokens.token();
    } catch (error) {
      return failureResponse(error);
    }
    const first = await send(token);
    if (first.status !== 401) return first;
    try {
      token = await tokens.renew(token);
    } catch (error) {
      return failureResponse(error);
    }
    return send(token);
  };
}
