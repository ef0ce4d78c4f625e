import type { ErrorIssue, Scope, Session } from "@petstore/contract";
import { render, renderHook } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { vi } from "vitest";
import { AppProviders, AppRoutes, ROUTER_FUTURE } from "../App.js";
import type { Sleep } from "../api/sleep.js";
import { StatusMessageRegion } from "../layout/status-message.js";
import { storeApiKey } from "../session/api-key-storage.js";

export const TEST_API_KEY = "test-key";

/** Who TEST_API_KEY is, unless a test says otherwise: a key that may add pets but not manage keys. */
export function testSession(scope: Scope = "write", name = "Test key"): Session {
  return { keyId: "7", staffId: null, name, scope, expiresAt: null };
}

type ApiHandler = (request: Request) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  issues?: ErrorIssue[],
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { code, message, status, ...(issues ? { issues } : {}) }, headers);
}

/** A promise the test settles when it chooses, to hold the app in a pending state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Replaces the network, and only the network: the app's real client, query
 * cache, router and pages run as in the browser; `handler` answers each
 * request the way the API would.
 */
function stubNetwork(handler: ApiHandler) {
  const requests: Request[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    // jsdom's AbortSignal is not the one Node's Request accepts; nothing here aborts anyway.
    const { signal: _signal, ...withoutSignal } = init;
    const request = new Request(input, withoutSignal);
    requests.push(request.clone());
    return handler(request);
  });
  return requests;
}

function LocationProbe({ onChange }: { onChange: (url: string) => void }) {
  const location = useLocation();
  onChange(`${location.pathname}${location.search}`);
  return null;
}

interface AppOptions {
  signedIn?: boolean;
  session?: Session;
}

/**
 * Signs in (unless told otherwise), stubs the network, and makes a sleep that
 * takes no time and records each wait: what renderApp and renderAppHook share.
 */
function prepareApp(handler: ApiHandler, { signedIn = true, session = testSession() }: AppOptions) {
  if (signedIn) storeApiKey(TEST_API_KEY, session);
  const requests = stubNetwork(handler);
  const sleeps: number[] = [];
  const sleep = async (milliseconds: number) => {
    sleeps.push(milliseconds);
  };
  return { requests, sleeps, sleep };
}

/** The app's providers and a router at `path`, as in the browser but for the timing. */
function TestApp({ path, sleep, children }: { path: string; sleep: Sleep; children: ReactNode }) {
  return (
    <AppProviders retryDelay={0} sleep={sleep}>
      <MemoryRouter initialEntries={[path]} future={ROUTER_FUTURE}>
        {children}
      </MemoryRouter>
    </AppProviders>
  );
}

/**
 * Renders the whole app at `path`, signed in unless told otherwise (as
 * `session`, testSession() by default), over a stubbed network. A create's waits between attempts take no time: `sleeps`
 * records how long each would have been.
 */
export function renderApp(path: string, handler: ApiHandler, options: AppOptions = {}) {
  const { requests, sleeps, sleep } = prepareApp(handler, options);
  const location = { current: path };
  const user = userEvent.setup();
  render(
    <TestApp path={path} sleep={sleep}>
      <AppRoutes />
      <LocationProbe onChange={(url) => (location.current = url)} />
    </TestApp>,
  );
  return { requests, location, user, sleeps };
}

/**
 * Runs a page's hook as renderApp runs the page: inside the app's providers,
 * a router at `path` and the status region (its messages show in
 * `screen.getByRole("status")`), over the same stubbed network and sleeps.
 */
export function renderAppHook<Result>(hook: () => Result, path: string, handler: ApiHandler, options: AppOptions = {}) {
  const { requests, sleeps, sleep } = prepareApp(handler, options);
  const view = renderHook(hook, {
    wrapper: ({ children }) => (
      <TestApp path={path} sleep={sleep}>
        <StatusMessageRegion>{children}</StatusMessageRegion>
      </TestApp>
    ),
  });
  return { ...view, requests, sleeps };
}
