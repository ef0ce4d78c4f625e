import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SignInOptionsProvider } from "./SignInOptionsProvider.js";
import { useSignInOptions } from "./sign-in-options.js";

function Shown() {
  const { passkeys, singleSignOn } = useSignInOptions();
  return <p>{`passkeys ${String(passkeys)}, single sign-on ${singleSignOn?.displayName ?? "none"}`}</p>;
}

function renderProvider(override?: Parameters<typeof SignInOptionsProvider>[0]["override"]) {
  const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <SignInOptionsProvider override={override}>
        <Shown />
      </SignInOptionsProvider>
    </QueryClientProvider>,
  );
}

describe("SignInOptionsProvider", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks the API once, without a credential, and offers what it says", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ passkeys: false, singleSignOn: { displayName: "Acme Workspace" } }), {
          status: 200,
        }),
    );
    vi.stubGlobal("fetch", fetch);
    renderProvider();
    expect(await screen.findByText("passkeys false, single sign-on Acme Workspace")).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new URL(url, "http://localhost").pathname).toBe("/admin/v1/sign-in-options");
    expect(new Headers(init.headers).has("authorization")).toBe(false);
  });

  it("keeps the defaults when the API cannot say, and does not ask when told", async () => {
    const fetch = vi.fn(async () => new Response("", { status: 503 }));
    vi.stubGlobal("fetch", fetch);
    renderProvider();
    expect(await screen.findByText("passkeys true, single sign-on none")).toBeInTheDocument();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));

    fetch.mockClear();
    renderProvider({ passkeys: true, singleSignOn: { displayName: "Told" } });
    expect(await screen.findByText("passkeys true, single sign-on Told")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
