import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { createQueryClient } from "./api/query-client.js";
import { PetstoreClientProvider } from "./api/petstore-client.js";
import { AppShell } from "./layout/AppShell.js";
import { NotFoundPage } from "./layout/NotFoundPage.js";
import { AddPetPage } from "./pets/AddPetPage.js";
import { PetDetailPage } from "./pets/PetDetailPage.js";
import { PetsPage } from "./pets/PetsPage.js";
import { RequireSession } from "./session/RequireSession.js";
import { SessionProvider, useSession } from "./session/session.js";
import { SignInPage } from "./session/SignInPage.js";

/** React Router 7's behaviour, adopted now so the upgrade changes nothing. */
export const ROUTER_FUTURE = { v7_startTransition: true, v7_relativeSplatPath: true } as const;

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route
        element={
          <RequireSession>
            <AppShell />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/pets" replace />} />
        <Route path="/pets" element={<PetsPage />} />
        <Route path="/pets/new" element={<AddPetPage />} />
        <Route path="/pets/:petId" element={<PetDetailPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The query client and the API client, wired to the session: it supplies the key, and a 401 from any request ends it. */
function ApiProvider({ children, retryDelay }: { children: ReactNode; retryDelay?: number | undefined }) {
  const { expire, readApiKey } = useSession();
  const [client] = useState(() => createQueryClient({ onUnauthorized: expire, retryDelay }));
  return (
    <QueryClientProvider client={client}>
      <PetstoreClientProvider readApiKey={readApiKey}>{children}</PetstoreClientProvider>
    </QueryClientProvider>
  );
}

/** Everything but the router, so tests can supply a MemoryRouter. */
export function AppProviders({ children, retryDelay }: { children: ReactNode; retryDelay?: number }) {
  return (
    <SessionProvider>
      <ApiProvider retryDelay={retryDelay}>{children}</ApiProvider>
    </SessionProvider>
  );
}
