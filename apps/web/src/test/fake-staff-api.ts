import type { Account, ApiKey, Passkey, StaffMember, StaffSessionSummary } from "@petstore/contract";
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

/** An issued key as listKeys answers it; `createdByStaffId` null (a key or the operator made it) unless told. */
export function apiKey(id: number, name: string, changes: Partial<ApiKey> = {}): ApiKey {
  return {
    id,
    name,
    scope: "read",
    prefix: `psk_${String(id).padStart(8, "x")}`,
    createdAt: "2026-11-20T09:00:00.000Z",
    createdBy: "Configured key 1",
    createdByStaffId: null,
    lastUsedAt: null,
    lastDeprecatedUseAt: null,
    expiresAt: null,
    revokedAt: null,
    ...changes,
  };
}

export function passkey(id: number, name: string, changes: Partial<Passkey> = {}): Passkey {
  return { id, name, createdAt: "2026-11-21T09:00:00.000Z", lastUsedAt: null, ...changes };
}

export function browserSession(
  id: number,
  browser: string | null,
  changes: Partial<StaffSessionSummary> = {},
): StaffSessionSummary {
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
 * (people newest first; the last passkey cannot be removed; listKeys by `createdByStaffId`; disabling
 * with `revokeKeys` revokes the person's keys); anything else is an empty list.
 */
export function staffApi({
  staff = [] as StaffMember[],
  account = null as Account | null,
  keys: initialKeys = [] as ApiKey[],
} = {}) {
  const people = [...staff];
  const keys = [...initialKeys];
  const state = { account, signedOutEverywhere: false };
  const handler = async (request: Request): Promise<Response> => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === "/admin/v1/staff" && request.method === "GET") return jsonResponse(200, people);
    if (pathname === "/admin/v1/keys" && request.method === "GET") {
      const by = searchParams.get("createdByStaffId");
      return jsonResponse(200, by === null ? keys : keys.filter((key) => key.createdByStaffId === Number(by)));
    }
    if (pathname === "/admin/v1/staff" && request.method === "POST") {
      const body = (await request.json()) as { email: string; name: string; role: StaffMember["role"] };
      const existing = people.findIndex((member) => member.email === body.email);
      // As the API: a person who never signed in (and is not disabled) is invited again, name and role as sent.
      if (existing >= 0 && people[existing]!.lastSignInAt === null && people[existing]!.disabledAt === null) {
        people[existing] = { ...people[existing]!, name: body.name, role: body.role };
        return jsonResponse(201, {
          staff: people[existing],
          invitationUrl: INVITATION_URL,
          expiresAt: "2026-11-26T10:00:00.000Z",
        });
      }
      if (existing >= 0) {
        return errorResponse(400, "VALIDATION_ERROR", "email is already a staff member's.", [
          { field: "body.email", message: "email is already a staff member's" },
        ]);
      }
      const member = staffMember(100 + people.length, body.name, {
        email: body.email,
        role: body.role,
        lastSignInAt: null,
      });
      people.unshift(member);
      return jsonResponse(201, { staff: member, invitationUrl: INVITATION_URL, expiresAt: "2026-11-26T10:00:00.000Z" });
    }
    const one = /^\/admin\/v1\/staff\/(\d+)\/(role|disable)$/.exec(pathname);
    if (one && request.method === "POST") {
      const index = people.findIndex((member) => member.id === Number(one[1]));
      if (index < 0) return errorResponse(404, "NOT_FOUND", `No staff member has id ${one[1]}.`);
      const current = people[index]!;
      if (one[2] === "role") {
        people[index] = { ...current, role: ((await request.json()) as { role: StaffMember["role"] }).role };
        return jsonResponse(200, people[index]);
      }
      const disabledAt = current.disabledAt ?? "2026-11-25T10:00:00.000Z";
      people[index] = { ...current, disabledAt };
      const body = (await request.json().catch(() => ({}))) as { revokeKeys?: boolean };
      if (body.revokeKeys === true) {
        keys.forEach((key, at) => {
          if (key.createdByStaffId === current.id && key.revokedAt === null)
            keys[at] = { ...key, revokedAt: disabledAt };
        });
      }
      return jsonResponse(200, people[index]);
    }
    if (pathname === "/admin/v1/account" && request.method === "GET") {
      return state.account
        ? jsonResponse(200, state.account)
        : errorResponse(403, "FORBIDDEN", "Only a person has an account.");
    }
    const passkeyPath = /^\/admin\/v1\/account\/passkeys\/(\d+)$/.exec(pathname);
    if (passkeyPath && request.method === "DELETE" && state.account) {
      const passkeys = state.account.passkeys;
      if (passkeys.length <= 1) return errorResponse(400, "VALIDATION_ERROR", "Your last passkey cannot be removed.");
      state.account = {
        ...state.account,
        passkeys: passkeys.filter((candidate) => candidate.id !== Number(passkeyPath[1])),
      };
      return new Response(null, { status: 204 });
    }
    if (pathname === "/admin/v1/account/sign-out-everywhere" && request.method === "POST") {
      state.signedOutEverywhere = true;
      return new Response(null, { status: 204 });
    }
    return jsonResponse(200, []);
  };
  return { people, keys, state, handler };
}
