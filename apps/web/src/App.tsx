import type { OperationName, Session } from "@petstore/contract";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from "react";
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

/** A page's component, fetched on its first render (React's `lazy` wants the module's default export). */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

// A page's code is fetched when it is first opened, not with the app: a first visit loads sign-in, the shell,
// the Overview (where sign-in lands) and the pets list (the page staff open most), nothing else. The shell
// suspends around its outlet while a page's code arrives (layout/AppShell.tsx).
const AddPetPage = lazyPage(() => import("./pets/AddPetPage.js"), "AddPetPage");
const ImportPetsPage = lazyPage(() => import("./pets/ImportPetsPage.js"), "ImportPetsPage");
const PetDetailPage = lazyPage(() => import("./pets/PetDetailPage.js"), "PetDetailPage");
const KeysPage = lazyPage(() => import("./access/KeysPage.js"), "KeysPage");
const ActivityPage = lazyPage(() => import("./access/ActivityPage.js"), "ActivityPage");
const WebhooksPage = lazyPage(() => import("./webhooks/WebhooksPage.js"), "WebhooksPage");
const WebhookPage = lazyPage(() => import("./webhooks/WebhookPage.js"), "WebhookPage");
const StaffPage = lazyPage(() => import("./staff/StaffPage.js"), "StaffPage");
const InvitationPage = lazyPage(() => import("./staff/InvitationPage.js"), "InvitationPage");
const DeletedPetsPage = lazyPage(() => import("./pets/DeletedPetsPage.js"), "DeletedPetsPage");
const CategoriesPage = lazyPage(() => import("./categories/CategoriesPage.js"), "CategoriesPage");
const AccountPage = lazyPage(() => import("./staff/AccountPage.js"), "AccountPage");

/**
 * The pages only some may open: the operation each needs (the session's scope or role decides), its title,
 * kept on the refusal so staff know where they are, and why not.
 */
const GUARDED_PAGES: ReadonlyArray<{
  path: string;
  operation: OperationName;
  title: string;
  refusal: string;
  Page: ComponentType;
}> = [
  { path: "/pets/new", operation: "createPet", title: "New pet", refusal: READ_ONLY_MESSAGE, Page: AddPetPage },
  {
    path: "/pets/import",
    operation: "createPet",
    title: "Import pets",
    refusal: READ_ONLY_MESSAGE,
    Page: ImportPetsPage,
  },
  {
    path: "/pets/deleted",
    operation: "restorePet",
    title: "Recently deleted",
    refusal: READ_ONLY_MESSAGE,
    Page: DeletedPetsPage,
  },
  { path: "/keys", operation: "listKeys", title: "Keys", refusal: ADMIN_ONLY_MESSAGE, Page: KeysPage },
  {
    path: "/activity",
    operation: "listAuditEvents",
    title: "Activity",
    refusal: ADMIN_ONLY_MESSAGE,
    Page: ActivityPage,
  },
  { path: "/webhooks", operation: "listWebhooks", title: "Webhooks", refusal: ADMIN_ONLY_MESSAGE, Page: WebhooksPage },
  {
    path: "/webhooks/:webhookId",
    operation: "getWebhook",
    title: "Webhook endpoint",
    refusal: ADMIN_ONLY_MESSAGE,
    Page: WebhookPage,
  },
  {
    path: "/categories",
    operation: "createCategory",
    title: "Categories",
    refusal: ADMIN_ONLY_MESSAGE,
    Page: CategoriesPage,
  },
  { path: "/staff", operation: "listStaff", title: "Staff", refusal: ADMIN_ONLY_MESSAGE, Page: StaffPage },
];

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
        <Route path="/pets/:petId" element={<PetDetailPage />} />
        {GUARDED_PAGES.map(({ path, operation, title, refusal, Page }) => (
          <Route
            key={path}
            path={path}
            element={
              <RequireOperation operation={operation} title={title} refusal={refusal}>
                <Page />
              </RequireOperation>
            }
          />
        ))}
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
