import { scopeCovers, v1Contract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { Request, Response } from "express";
import { auditContext, caller } from "../access/caller.js";
import { toErrorBody } from "../base/http-error.js";
import type { RouterOf } from "../base/contract-router.js";
import {
  decodeCursor,
  type PetChangeCall,
  type PetChangeOutcome,
  type PetChangeRequest,
  type PetChanges,
} from "./pet-changes.js";

const server = initServer();

const BAD_CURSOR = {
  status: 400 as const,
  body: {
    ...toErrorBody(400, "VALIDATION_ERROR", "Invalid request: query.after: after must be a cursor from a Link header."),
    issues: [{ field: "query.after", message: "after must be a cursor from a Link header" }],
  },
};

/** `Link: <...?limit=N&after=CURSOR>; rel="next"` when a next page exists. */
function linkNext(
  next: string | undefined,
  limit: number,
  req: Pick<Request, "baseUrl" | "path">,
  res: Response,
): void {
  if (next === undefined) return;
  const query = new URLSearchParams({ limit: String(limit), after: next });
  res.setHeader("Link", `<${req.baseUrl}${req.path}?${query.toString()}>; rel="next"`);
}

/** A refused or answered change, as the contract's answers. */
function answerOf(outcome: PetChangeOutcome, notFound: string, res: Response) {
  switch (outcome.kind) {
    case "done":
      if (outcome.replayed) res.setHeader("Idempotent-Replayed", "true");
      return outcome;
    case "not-found":
      return { status: 404 as const, body: toErrorBody(404, "NOT_FOUND", notFound) };
    case "conflict":
      return {
        status: 409 as const,
        body: toErrorBody(
          409,
          "CONFLICT",
          `${outcome.message}; nothing was changed. Read the pet again and decide anew.`,
        ),
      };
    case "invalid":
      return {
        status: 400 as const,
        body: {
          ...toErrorBody(
            400,
            "VALIDATION_ERROR",
            `Invalid request: ${outcome.issues.map(({ field, message }) => `${field}: ${message}`).join("; ")}.`,
          ),
          issues: outcome.issues,
        },
      };
    case "forbidden":
      res.setHeader("WWW-Authenticate", 'Bearer realm="petstore", error="insufficient_scope", scope="admin"');
      return { status: 403 as const, body: toErrorBody(403, "FORBIDDEN", outcome.message) };
    case "reused":
      return {
        status: 422 as const,
        body: toErrorBody(
          422,
          "IDEMPOTENCY_KEY_REUSED",
          "This Idempotency-Key was already used with another operation, pet or body; send a new key for a new change.",
        ),
      };
    case "in-flight":
      res.setHeader("Retry-After", "1");
      return {
        status: 409 as const,
        body: toErrorBody(
          409,
          "IDEMPOTENCY_KEY_IN_USE",
          "A request with this Idempotency-Key is still being processed; retry after 1 second.",
        ),
      };
  }
}

/** The change as its caller asked it, with who asks and their key. */
function callOf(
  request: PetChangeRequest,
  key: string | undefined,
  req: Pick<Request, "id" | "ip">,
  res: Response,
): PetChangeCall {
  const who = caller(res);
  return {
    request,
    audit: auditContext(req, res),
    mayReturnSold: scopeCovers(who.scope, "admin"),
    idempotency: key === undefined ? undefined : { scope: who.storeKey, key },
  };
}

/** Pets that change, beyond the spec: updatePet, deletePet, listDeletedPets, restorePet, listPetHistory. */
export function createPetChangesRouter(changes: PetChanges): RouterOf<typeof v1Contract.petChanges> {
  return server.router(v1Contract.petChanges, {
    updatePet: async ({ params, body, headers, req, res }) => {
      const outcome = await changes.change(
        callOf({ operation: "updatePet", petId: params.petId, patch: body }, headers["idempotency-key"], req, res),
      );
      const answer = answerOf(outcome, `No pet has id ${params.petId}.`, res);
      return "kind" in answer ? { status: 200 as const, body: answer.pet! } : answer;
    },

    deletePet: async ({ params, headers, req, res }) => {
      const outcome = await changes.change(
        callOf({ operation: "deletePet", petId: params.petId }, headers["idempotency-key"], req, res),
      );
      const answer = answerOf(outcome, `No pet has id ${params.petId}.`, res);
      return "kind" in answer ? { status: 204 as const, body: undefined } : answer;
    },

    restorePet: async ({ params, headers, req, res }) => {
      const outcome = await changes.change(
        callOf({ operation: "restorePet", petId: params.petId }, headers["idempotency-key"], req, res),
      );
      const answer = answerOf(outcome, `No deleted pet has id ${params.petId}.`, res);
      return "kind" in answer ? { status: 200 as const, body: answer.pet! } : answer;
    },

    listDeletedPets: async ({ query, req, res }) => {
      if (query.after !== undefined && !decodeCursor(query.after, "time-id")) return BAD_CURSOR;
      const page = await changes.listDeleted({
        take: query.limit,
        after: query.after,
        showNames: scopeCovers(caller(res).scope, "write"),
      });
      linkNext(page.next, query.limit, req, res);
      return { status: 200 as const, body: page.entries };
    },

    listPetHistory: async ({ params, query, req, res }) => {
      if (query.after !== undefined && !decodeCursor(query.after, "id")) return BAD_CURSOR;
      const page = await changes.history(params.petId, {
        take: query.limit,
        after: query.after,
        showNames: scopeCovers(caller(res).scope, "write"),
      });
      if (!page)
        return { status: 404 as const, body: toErrorBody(404, "NOT_FOUND", `No pet has ever had id ${params.petId}.`) };
      linkNext(page.next, query.limit, req, res);
      return { status: 200 as const, body: page.entries };
    },
  });
}
