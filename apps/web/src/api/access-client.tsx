import { adminContract, type AuditAction } from "@petstore/contract";
import { initTsrReactQuery } from "@ts-rest/react-query/v5";
import { createContext, useContext, useState, type ReactNode } from "react";
import type { TokenManager } from "./token-manager.js";
import { apiClientOptions } from "./petstore-client.js";

/**
 * The staff-access operations (`/admin/v1`: the session, issued keys, the
 * activity log, webhook endpoints, staff and the signed-in person's account), typed and parsed by the contract like the pets client. It
 * needs no provider of its own: its hooks use the app's query client.
 */
export function createAccessClient(tokens: TokenManager) {
  return initTsrReactQuery(adminContract, apiClientOptions(tokens));
}

export type AccessClient = ReturnType<typeof createAccessClient>;

const AccessClientContext = createContext<AccessClient | null>(null);

export function AccessClientProvider({ tokens, children }: { tokens: TokenManager; children: ReactNode }) {
  const [client] = useState(() => createAccessClient(tokens));
  return <AccessClientContext.Provider value={client}>{children}</AccessClientContext.Provider>;
}

export function useAccessClient(): AccessClient {
  const client = useContext(AccessClientContext);
  if (!client) throw new Error("useAccessClient must be used inside <AccessClientProvider>");
  return client;
}

/** Keys of every cached query about staff access, so a create or revoke refreshes what it changed. */
export const accessQueryKeys = {
  all: ["access"] as const,
  keys: ["access", "keys"] as const,
  /** The keys one person made (listKeys with createdByStaffId). */
  keysBy: (staffId: number) => ["access", "keys", "by", staffId] as const,
  events: ["access", "events"] as const,
  eventPage: (action: AuditAction | undefined, after: number | undefined) =>
    ["access", "events", "page", action ?? "all", after ?? 0] as const,
  petCreated: (petId: number) => ["access", "events", "pet.created", petId] as const,
  webhooks: ["access", "webhooks"] as const,
  webhookList: ["access", "webhooks", "list"] as const,
  webhook: (webhookId: number) => ["access", "webhooks", webhookId] as const,
  deliveries: (webhookId: number) => ["access", "webhooks", webhookId, "deliveries"] as const,
  deliveryPage: (webhookId: number, after: number | undefined) =>
    ["access", "webhooks", webhookId, "deliveries", "page", after ?? 0] as const,
  lastDelivery: (webhookId: number) => ["access", "webhooks", webhookId, "deliveries", "last"] as const,
  staff: ["access", "staff"] as const,
  account: ["access", "account"] as const,
};
