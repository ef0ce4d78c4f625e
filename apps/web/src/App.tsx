import type { Session } from "@petstore/contract";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { AccessClientProvider } from "./api/access-client.js";
import { createQueryClient } from "./api/query-client.js";
import { PetstoreClientProvider } from "./api/petstore-client.js";
import { CreateRetrySleepContext } from "./api/retry-create.js";
import { realSleep, type Sleep } from "./api/sleep.js";
import { AppShell } from "./layout/AppShell.js";
import { NotFoundPage } from "./design-system/NotFoundPage.js";
import { LoadingPage } from "./design-system/LoadingPage.js";
import { OverviewPage } from "./overview/OverviewPage.js";
import { PetsPage } from "./pets/PetsPage.js";
import { requestSessionToken } from "./api/authorized-fetch.js";
import { ADMIN_ONLY_MESSAGE, READ_ONLY_MESSAGE, RequireOperation, RequirePerson } from "./session/permissions.js";
import { RequireSession } from "./session/RequireSession.js";
import { SessionProvider, useSession } from "./session/session.js";
import type { SignInOptions } from "./session/sign-in-options.js";
import { SignInOptionsProvider } from "./session/SignInOptionsProvider.js";
import { SignInPage } from "./session/SignInPage.js";
import { createTokenManager } from "./api/token-manager.js";

// A page's code is fetched when it is first opened, not with the app: a first visit loads sign-in, the shell,
// the Overview (where sign-in lands) and the pets list (the page staff open most), nothing else. The shell
// suspends around its outlet while a page's code arrives (layout/AppShell.tsx).
const AddPetPage = lazy(() => import("./pets/AddPetPage.js").then(({ AddPetPage }) => ({ default: AddPetPage })));
const ImportPetsPage = lazy(() =>
  import("./pets/ImportPetsPage.js").then(({ ImportPetsPage }) => ({ default: ImportPetsPage })),
);
const PetDetailPage = lazy(() =>
  import("./pets/PetDetailPage.js").then(({ PetDetailPage }) => ({ default: PetDetailPage })),
);
const KeysPage = lazy(() => import("./access/KeysPage.js").then(({ KeysPage }) => ({ default: KeysPage })));
const ActivityPage = lazy(() =>
  import("./access/ActivityPage.js").then(({ ActivityPage }) => ({ default: ActivityPage })),
);
const WebhooksPage = lazy(() =>
  import("./webhooks/WebhooksPage.js").then(({ WebhooksPage }) => ({ default: WebhooksPage })),
);
const WebhookPage = lazy(() =>
  import("./webhooks/WebhookPage.js").then(({ WebhookPage }) => ({ default: WebhookPage })),
);
const StaffPage = lazy(() => import("./staff/StaffPage.js").then(({ StaffPage }) => ({ default: StaffPage })));
const InvitationPage = lazy(() =>
  import("./staff/InvitationPage.js").then(({ InvitationPage }) => ({ default: InvitationPage })),
);
const DeletedPetsPage = lazy(() =>
  import("./pets/DeletedPetsPage.js").then(({ DeletedPetsPage }) => ({ default: DeletedPetsPage })),
);
const CategoriesPage = lazy(() =>
  import("./categories/CategoriesPage.js").then(({ CategoriesPage }) => ({ default: CategoriesPage })),
);
const AccountPage = lazy(() => import("./staff/AccountPage.js").then(({ AccountPage }) => ({ default: AccountPage })));

/** React Router 7's behaviour, adopted now so the upgrade changes nothing. */
export const ROUTER_FUTURE = { v7_startTransition: true, v7_relativeSplatPath: true } as const;

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route
        path="/invite"
        element={
          <Suspense fallback={<LoadingPage />}>
            <InvitationPage />
          </Suspense>
        }
      />
      <Route
        element={
          <RequireSession>
            <AppShell />
          </RequireSession>
        }
      >
        <Route index element={<OverviewPage />} />
        {/* The Overview's other address: `/` is where sign-in lands. */}
        <Route path="/overview" element={<Navigate to="/" replace />} />
        <Route path="/pets" element={<PetsPage />} />
        <Route
          path="/pets/new"
          element={
            <RequireOperation operation="createPet" title="New pet" refusal={READ_ONLY_MESSAGE}>
              <AddPetPage />
            </RequireOperation>
          }
        />
        <Route
          path="/pets/import"
          element={
            <RequireOperation operation="createPet" title="Import pets" refusal={READ_ONLY_MESSAGE}>
              <ImportPetsPage />
            </RequireOperation>
          }
        />
        <Route
          path="/pets/deleted"
          element={
            <RequireOperation operation="restorePet" title="Recently deleted" refusal={READ_ONLY_MESSAGE}>
              <DeletedPetsPage />
            </RequireOperation>
          }
        />
        <Route path="/pets/:petId" element={<PetDetailPage />} />
        <Route
          path="/keys"
          element={
            <RequireOperation operation="listKeys" title="Keys" refusal={ADMIN_ONLY_MESSAGE}>
              <KeysPage />
            </RequireOperation>
          }
        />
        <Route
          path="/activity"
          element={
            <RequireOperation operation="listAuditEvents" title="Activity" refusal={ADMIN_ONLY_MESSAGE}>
              <ActivityPage />
            </RequireOperation>
          }
        />
        <Route
          path="/webhooks"
          element={
            <RequireOperation operation="listWebhooks" title="Webhooks" refusal={ADMIN_ONLY_MESSAGE}>
              <WebhooksPage />
            </RequireOperation>
          }
        />
        <Route
          path="/webhooks/:webhookId"
          element={
            <RequireOperation operation="getWebhook" title="Webhook endpoint" refusal={ADMIN_ONLY_MESSAGE}>
              <WebhookPage />
            </RequireOperation>
          }
        />
        <Route
          path="/categories"
          element={
            <RequireOperation operation="createCategory" title="Categories" refusal={ADMIN_ONLY_MESSAGE}>
              <CategoriesPage />
            </RequireOperation>
          }
        />
        <Route
          path="/staff"
          element={
            <RequireOperation operation="listStaff" title="Staff" refusal={ADMIN_ONLY_MESSAGE}>
              <StaffPage />
            </RequireOperation>
          }
        />
        <Route
          path="/account"
          element={
            <RequirePerson title="Account">
              <AccountPage />
            </RequirePerson>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/**
 * The query client and the API clients, wired to the session: it supplies the token, and a 401 that a
 * renewed token does not cure ends it.
 */
function ApiProvider({ children, retryDelay, sleep }: { children: ReactNode } & RetryTiming) {
  const { expire, tokens } = useSession();
  const [client] = useState(() => createQueryClient({ onUnauthorized: expire, retryDelay }));
  return (
    <QueryClientProvider client={client}>
      <PetstoreClientProvider tokens={tokens}>
        <AccessClientProvider tokens={tokens}>
          <CreateRetrySleepContext.Provider value={sleep ?? realSleep}>{children}</CreateRetrySleepContext.Provider>
        </AccessClientProvider>
      </PetstoreClientProvider>
    </QueryClientProvider>
  );
}

/** How long the app waits before asking again; tests shorten both. */
interface RetryTiming {
  /** Milliseconds between query retries the API gave no `Retry-After` for. */
  retryDelay?: number | undefined;
  /** How a create waits between attempts (api/retry-create.ts). */
  sleep?: Sleep | undefined;
}

/** Everything but the router, so tests can supply a MemoryRouter. */
export function AppProviders({
  children,
  retryDelay,
  sleep,
  signInOptions,
  initialSession,
}: {
  children: ReactNode;
  signInOptions?: SignInOptions | undefined;
  initialSession?: Session | undefined;
} & RetryTiming) {
  // One token manager per page load: the token lives in this memory only.
  const [tokens] = useState(() => createTokenManager({ requestToken: requestSessionToken }));
  return (
    <SessionProvider tokens={tokens} initialSession={initialSession}>
      <ApiProvider retryDelay={retryDelay} sleep={sleep}>
        <SignInOptionsProvider override={signInOptions}>{children}</SignInOptionsProvider>
      </ApiProvider>
    </SessionProvider>
  );
}
