import type { Event, Scope, Session } from "@petstore/contract";
import { render, renderHook } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { vi } from "vitest";
import { AppProviders, AppRoutes, ROUTER_FUTURE } from "../App.js";
import type { Sleep } from "../api/sleep.js";
import { StatusMessageRegion } from "../design-system/status-message.js";
import { DEFAULT_SIGN_IN_OPTIONS, type SignInOptions } from "../session/sign-in-options.js";
import { fakeSession, type FakeSession } from "./fake-session.js";

export { errorResponse, jsonResponse } from "./responses.js";

export const TEST_API_KEY = "test-key";

/** Who TEST_API_KEY is, unless a test says otherwise: a key that may add pets but not manage keys. */
export function testSession(scope: Scope = "write", name = "Test key"): Session {
  return { keyId: "7", staffId: null, name, scope, expiresAt: null };
}

/** A person signed in as themselves (a passkey or single sign-on), `staffId` 12 unless told. */
export function personSession(scope: Scope = "write", name = "Sam Rivera", staffId = 12): Session {
  return { keyId: null, staffId, name, scope, expiresAt: "2026-11-25T10:10:00.000Z" };
}

type ApiHandler = (request: Request) => Response | Promise<Response>;

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
function stubNetwork(handler: ApiHandler, session: FakeSession) {
  const requests: Request[] = [];
  const allRequests: Request[] = [];
  const liveEvents = liveEventStreams();
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    // jsdom's AbortSignal is not the one Node's Request accepts; nothing here aborts anyway.
    const { signal: _signal, ...withoutSignal } = init;
    // The app calls its own origin ("" + path), as in production: resolve it against the page.
    const url = typeof input === "string" ? new URL(input, window.location.href) : input;
    // The live updates' event stream stays open and quiet unless a test sends on it (liveEvents.send); it is
    // not among `requests`, which tests count.
    if (String(url).includes("/v1/events/stream")) return liveEvents.open();
    const request = new Request(url, withoutSignal);
    allRequests.push(request.clone());
    const answered = await session.answer(request.clone());
    if (answered) return answered;
    const refused = session.authorize(request);
    if (refused) return refused;
    requests.push(request.clone());
    return handler(request);
  });
  return { requests, allRequests, liveEvents };
}

/** The event streams the app opened, and a way to send an event on every one of them, as the API would. */
function liveEventStreams() {
  const open: Array<ReadableStreamDefaultController<Uint8Array>> = [];
  const encoder = new TextEncoder();
  return {
    open(): Response {
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void open.push(controller) });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } });
    },
    send(event: Event) {
      const message = `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
      for (const controller of open) controller.enqueue(encoder.encode(message));
    },
    get count() {
      return open.length;
    },
  };
}

function LocationProbe({ onChange }: { onChange: (url: string) => void }) {
  const location = useLocation();
  onChange(`${location.pathname}${location.search}`);
  return null;
}

interface AppOptions {
  /** Whether the browser has a session cookie when the app loads (default true). */
  signedIn?: boolean;
  /** Who that session is, and who TEST_API_KEY signs in as. */
  session?: Session;
  /** Keys the sign-in page's `session/start` accepts besides TEST_API_KEY. */
  keys?: Record<string, Session>;
  /** What the sign-in page offers; default: passkeys, no single sign-on (the app then does not ask the API). */
  signInOptions?: SignInOptions;
  /**
   * Signed in, the app starts knowing who (as it did when the tab kept its session), unless this is
   * true: then it asks the API on load, as a new tab does.
   */
  checkOnLoad?: boolean;
}

/**
 * Gives the browser a session (unless told otherwise: the fake API's session endpoints, see
 * fake-session.ts), stubs the network, and makes a sleep that
 * takes no time and records each wait: what renderApp and renderAppHook share.
 */
function prepareApp(
  handler: ApiHandler,
  { signedIn = true, session = testSession(), keys = {}, checkOnLoad = false }: AppOptions,
) {
  const fake = fakeSession({ signedInAs: signedIn ? session : null, keys: { [TEST_API_KEY]: session, ...keys } });
  const { requests, allRequests, liveEvents } = stubNetwork(handler, fake);
  const sleeps: number[] = [];
  const sleep = async (milliseconds: number) => {
    sleeps.push(milliseconds);
  };
  const initialSession = signedIn && !checkOnLoad ? session : undefined;
  return { requests, allRequests, liveEvents, session: fake, sleeps, sleep, initialSession };
}

/** The app's providers and a router at `path`, as in the browser but for the timing. */
interface TestAppProps {
  path: string;
  sleep: Sleep;
  signInOptions?: SignInOptions | undefined;
  initialSession?: Session | undefined;
  children: ReactNode;
}

function TestApp({ path, sleep, signInOptions, initialSession, children }: TestAppProps) {
  return (
    <AppProviders retryDelay={0} sleep={sleep} signInOptions={signInOptions} initialSession={initialSession}>
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
  const { requests, allRequests, liveEvents, session, sleeps, sleep, initialSession } = prepareApp(handler, options);
  const location = { current: path };
  const user = userEvent.setup();
  render(
    <TestApp
      path={path}
      sleep={sleep}
      signInOptions={options.signInOptions ?? DEFAULT_SIGN_IN_OPTIONS}
      initialSession={initialSession}
    >
      <AppRoutes />
      <LocationProbe onChange={(url) => (location.current = url)} />
    </TestApp>,
  );
  return { requests, allRequests, liveEvents, session, location, user, sleeps };
}

/**
 * Runs a page's hook as renderApp runs the page: inside the app's providers,
 * a router at `path` and the status region (its messages show in
 * `screen.getByRole("status")`), over the same stubbed network and sleeps.
 */
export function renderAppHook<Result>(hook: () => Result, path: string, handler: ApiHandler, options: AppOptions = {}) {
  const { requests, allRequests, session, sleeps, sleep, initialSession } = prepareApp(handler, options);
  const view = renderHook(hook, {
    wrapper: ({ children }) => (
      <TestApp path={path} sleep={sleep} initialSession={initialSession}>
        <StatusMessageRegion>{children}</StatusMessageRegion>
      </TestApp>
    ),
  });
  return { ...view, requests, allRequests, session, sleeps };
}
