import { adminContract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { Response } from "express";
import { auditContext, caller } from "../access/caller.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { fieldRefusedAnswer, HttpError, notFoundAnswer } from "../base/http-error.js";
import { clearSessionCookie } from "./session-cookie.js";
import type { StaffSessions } from "./sessions.js";
import { toSessionSummary } from "./staff-router.js";
import type { RouterOf } from "../base/contract-router.js";

const server = initServer();

/** The account contract: the signed-in person's own passkeys and sessions (a person's token, checked before these run). */
export function createAccountRouter({
  sessions,
  issuedKeys,
}: {
  sessions: StaffSessions;
  issuedKeys: IssuedKeys;
}): RouterOf<typeof adminContract.account> {
  const repository = sessions.repository;
  /** The signed-in person (a personToken route ran the check): their record, which must exist. */
  const person = async (res: Response) => {
    const { staffId } = caller(res);
    const staff = staffId === null ? null : await repository.getStaff(staffId);
    if (!staff) throw new HttpError(401, "UNAUTHORIZED", "Sign in again: this account no longer exists.");
    return staff;
  };
  return server.router(adminContract.account, {
    getAccount: async ({ res }) => {
      const staff = await person(res);
      const now = sessions.now();
      const [passkeys, open] = await Promise.all([
        repository.listPasskeys(staff.id),
        repository.listSessions(staff.id, new Date(now)),
      ]);
      return {
        status: 200,
        body: { staff, passkeys, sessions: open.map((session) => toSessionSummary(session, caller(res).sessionId)) },
      };
    },

    renamePasskey: async ({ params, body, res }) => {
      const staff = await person(res);
      const passkey = await repository.renamePasskey(staff.id, params.passkeyId, body.name);
      return passkey
        ? { status: 200, body: passkey }
        : notFoundAnswer(`You have no passkey with id ${params.passkeyId}.`);
    },

    removePasskey: async ({ params, req, res }) => {
      const staff = await person(res);
      const outcome = await repository.removePasskey(staff.id, params.passkeyId, auditContext(req, res), staff.name);
      if (outcome === null) return notFoundAnswer(`You have no passkey with id ${params.passkeyId}.`);
      if (outcome === "last")
        return fieldRefusedAnswer("passkeyId", "this is your only passkey: add another before you remove it");
      return { status: 204, body: undefined };
    },

    signOutEverywhere: async ({ req, res }) => {
      const staff = await person(res);
      await repository.endStaffSessions(staff.id, auditContext(req, res), staff.name);
      issuedKeys.endedSessions({ staffId: staff.id });
      clearSessionCookie(res);
      return { status: 204, body: undefined };
    },
  });
}
