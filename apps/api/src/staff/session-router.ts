import { adminContract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { auditContext, caller } from "../access/caller.js";
import { HttpError } from "../base/http-error.js";
import type { StaffSessions } from "./sessions.js";
import type { RouterOf } from "../base/contract-router.js";

const server = initServer();

/**
 * The session contract: who the caller is (any valid key or token), a session token bought with the
 * browser's cookie, signing out, and a key starting a browser session.
 */
export function createSessionRouter({ sessions }: { sessions: StaffSessions }): RouterOf<typeof adminContract.session> {
  return server.router(adminContract.session, {
    getSession: async ({ res }) => {
      const { keyId, staffId, name, scope, expiresAt } = caller(res);
      return { status: 200, body: { keyId, staffId, name, scope, expiresAt: expiresAt?.toISOString() ?? null } };
    },

    createSessionToken: async ({ req, res }) => {
      const refusal = sessions.originRefusal(req);
      if (refusal) throw refusal;
      const live = await sessions.live(req);
      if ("refused" in live) throw await sessions.failure(req, () => new HttpError(401, "UNAUTHORIZED", live.refused));
      return { status: 201, body: await sessions.mintToken(live, res) };
    },

    signOut: async ({ req, res }) => {
      const refusal = sessions.originRefusal(req);
      if (refusal) throw refusal;
      if (await sessions.signOut(req, res)) return { status: 204, body: undefined };
      // No cookie, or one of no live session: a failure like a token request's (each unknown cookie cost a read).
      throw await sessions.failure(
        req,
        () => new HttpError(401, "UNAUTHORIZED", "This browser had no session, or it had ended already."),
      );
    },

    startKeySession: async ({ req, res }) => ({
      status: 201,
      body: await sessions.startKeySession(req, res, caller(res), auditContext(req, res)),
    }),
  });
}
