import type { Account, Passkey, StaffMember, StaffSessionSummary } from "@petstore/contract";
import { errorResponse, jsonResponse } from "./responses.js";

export const INVITATION_TOKEN = "i".repeat(43);
export const INVITATION_URL = `http://localhost:5173/invite#${INVITATION_TOKEN}`;

export function staffMember(id: number, name: string, changes: Partial<StaffMember> = {}): StaffMember {
  return {
    id,
    email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`,
    name,
    role: "write",
    createdAt: "2026-11-20T09:00:00.000Z",
    createdBy: "Configured key 1",
    lastSignInAt: "2026-11-24T08:00:00.000Z",
    disabledAt: null,
    ...changes,
  };
}

export function passkey(id: number, name: string, changes: Partial<Passkey> = {}): Passkey {
  return { id, name, createdAt: "2026-11-21T09:00:00.000Z", lastUsedAt: null, ...changes };
}

export function browserSession(id: number, browser: string | null, changes: Partial<StaffSessionSummary> = {}): StaffSessionSummary {
  return {
    id,
    browser,
    signedInAt: "2026-11-25T08:00:00.000Z",
    lastActiveAt: "2026-11-25T09:00:00.000Z",
    expiresAt: "2026-12-02T08:00:00.000Z",
    current: false,
    ...changes,
  };
}

/**
 * The access API's staff and account operations over in-memory lists, as the server answers them
 * (people newest first; the last passkey cannot be removed); anything else is an empty list.
 */
export function staffApi({ staff = [] as StaffMember[], account = null as Account | null } = {}) {
  const people = [...staff];
  const state = { account, signedOutEverywhere: false };
  const handler = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === "/admin/v1/staff" && request.method === "GET") return jsonResponse(200, people);
    if (pathname === "/admin/v1/staff" && request.method === "POST") {
      const body = (await request.json()) as { email: string; name: string; role: StaffMember["role"] };
      const existing = people.findIndex((member) => member.email === body.email);
      // As the API: a person who never signed in (and is not disabled) is invited again, name and role as sent.
      if (existing >= 0 && people[existing]!.lastSignInAt === null && people[existing]!.disabledAt === null) {
        people[existing] = { ...people[existing]!, name: body.name, role: body.role };
        return jsonResponse(201, { staff: people[existing], invitationUrl: INVITATION_URL, expiresAt: "2026-11-26T10:00:00.000Z" });
      }
      if (existing >= 0) {
        return errorResponse(400, "VALIDATION_ERROR", "email is already a staff member's.", [
          { field: "body.email", message: "email is already a staff member's" },
        ]);
      }
      const member = staffMember(100 + people.length, body.name, { email: body.email, role: body.role, lastSignInAt: null });
      people.unshift(member);
      return jsonResponse(201, { staff: member, invitationUrl: INVITATION_URL, expiresAt: "2026-11-26T10:00:00.000Z" });
    }
    const one = /^\/admin\/v1\/staff\/(\d+)\/(role|disable)$/.exec(pathname);
    if (one && request.method === "POST") {
      const index = people.findIndex((member) => member.id === Number(one[1]));
      if (index < 0) return errorResponse(404, "NOT_FOUND", `No staff member has id ${one[1]}.`);
      const current = people[index]!;
      people[index] =
        one[2] === "role"
          ? { ...current, role: ((await request.json()) as { role: StaffMember["role"] }).role }
          : { ...current, disabledAt: current.disabledAt ?? "2026-11-25T10:00:00.000Z" };
      return jsonResponse(200, people[index]);
    }
    if (pathname === "/admin/v1/account" && request.method === "GET") {
      return state.account ? jsonResponse(200, state.account) : errorResponse(403, "FORBIDDEN", "Only a person has an account.");
    }
    const passkeyPath = /^\/admin\/v1\/account\/passkeys\/(\d+)$/.exec(pathname);
    if (passkeyPath && request.method === "DELETE" && state.account) {
      const passkeys = state.account.passkeys;
      if (passkeys.length <= 1) return errorResponse(400, "VALIDATION_ERROR", "Your last passkey cannot be removed.");
      state.account = { ...state.account, passkeys: passkeys.filter((candidate) => candidate.id !== Number(passkeyPath[1])) };
      return new Response(null, { status: 204 });
    }
    if (pathname === "/admin/v1/account/sign-out-everywhere" && request.method === "POST") {
      state.signedOutEverywhere = true;
      return new Response(null, { status: 204 });
    }
    return jsonResponse(200, []);
  };
  return { people, state, handler };
}
