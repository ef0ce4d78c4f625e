import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, personSession, renderApp, testSession } from "../test/render-app.js";

const noPets = () => jsonResponse(200, []);

function navigationLinks(): string[] {
  return within(screen.getByRole("navigation", { name: "Main" }))
    .getAllByRole("link")
    .map((link) => link.textContent ?? "");
}

describe("what a key's scope shows", () => {
  it("a read key: no way to add pets, in the navigation or the empty list", async () => {
    renderApp("/pets", noPets, { session: testSession("read", "Front desk") });
    expect(await screen.findByText("Signed in as Front desk (read)")).toBeInTheDocument();
    expect(navigationLinks()).toEqual(["Overview", "Pets"]);
    expect(await screen.findByText("There are no pets in the store yet.")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Add the first pet" })).not.toBeInTheDocument();
  });

  it.each(["/pets/new", "/pets/import"])(
    "a read key opening %s is told it can only read, and nothing is sent",
    async (path) => {
      const { requests } = renderApp(path, noPets, { session: testSession("read") });
      expect(await screen.findByText("This key can only read pets.")).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /Add pet|Check/ })).not.toBeInTheDocument();
      expect(requests).toEqual([]);
    },
  );

  it("a write key adds pets but sees none of Keys, Activity and Webhooks", async () => {
    renderApp("/pets", noPets, { session: testSession("write", "Intake") });
    expect(await screen.findByText("Signed in as Intake (write)")).toBeInTheDocument();
    expect(navigationLinks()).toEqual(["Overview", "Pets", "New pet", "Import pets", "Recently deleted"]);
    expect(await screen.findByRole("link", { name: "Add the first pet" })).toBeInTheDocument();
  });

  it.each([
    ["/keys", "Keys"],
    ["/activity", "Activity"],
    ["/webhooks", "Webhooks"],
    ["/webhooks/1", "Webhook endpoint"],
    ["/staff", "Staff"],
    ["/categories", "Categories"],
  ])("a key that is not admin opening %s is told it needs an admin key, and nothing is sent", async (path, heading) => {
    const { requests } = renderApp(path, noPets, { session: testSession("write") });
    expect(await screen.findByRole("heading", { name: heading, level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/You need an admin key/)).toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it("an admin key sees Categories, Keys, Activity, Webhooks and Staff too, but no Account", async () => {
    renderApp("/pets", noPets, { session: testSession("admin", "Configured key 1") });
    expect(await screen.findByText("Signed in as Configured key 1 (admin)")).toBeInTheDocument();
    expect(navigationLinks()).toEqual([
      "Overview",
      "Pets",
      "New pet",
      "Import pets",
      "Recently deleted",
      "Categories",
      "Keys",
      "Activity",
      "Webhooks",
      "Staff",
    ]);
  });

  it("a person is named in the header like a key, and has an Account", async () => {
    renderApp("/pets", noPets, { session: personSession("write", "Sam Rivera") });
    expect(await screen.findByText("Signed in as Sam Rivera (write)")).toBeInTheDocument();
    expect(navigationLinks()).toEqual(["Overview", "Pets", "New pet", "Import pets", "Recently deleted", "Account"]);
  });

  it("an admin person sees Staff and Account", async () => {
    renderApp("/pets", noPets, { session: personSession("admin", "Ana Admin") });
    expect(await screen.findByText("Signed in as Ana Admin (admin)")).toBeInTheDocument();
    expect(navigationLinks()).toEqual([
      "Overview",
      "Pets",
      "New pet",
      "Import pets",
      "Recently deleted",
      "Categories",
      "Keys",
      "Activity",
      "Webhooks",
      "Staff",
      "Account",
    ]);
  });

  it("a key opening /account is told it is for people, and nothing is sent", async () => {
    const { requests } = renderApp("/account", noPets, { session: testSession("admin") });
    expect(await screen.findByRole("heading", { name: "Account", level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/This page is for people who sign in as themselves/)).toBeInTheDocument();
    expect(requests).toEqual([]);
  });
});
