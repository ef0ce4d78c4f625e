import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakePetStore, postedKeys } from "../test/fake-pet-store.js";
import { errorResponse, renderApp } from "../test/render-app.js";

const HEADER = "name,categoryId,status";

async function pasteCsv(user: ReturnType<typeof renderApp>["user"], csv: string) {
  await user.click(await screen.findByLabelText("Pets as CSV"));
  await user.paste(csv);
}

describe("the import page", () => {
  it("is linked beside New pet", async () => {
    const { user, location } = renderApp("/pets", fakePetStore().handler);
    await user.click(screen.getByRole("link", { name: "Import pets" }));
    expect(location.current).toBe("/pets/import");
    expect(await screen.findByRole("heading", { name: "Import pets", level: 1 })).toBeInTheDocument();
  });

  it("Check shows every row with its contract error, and sends nothing", async () => {
    const { user, requests } = renderApp("/pets/import", fakePetStore().handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    await pasteCsv(user, `${HEADER}\r\n"Rex, Jr.",4,available\n   ,0,\nTom,1.5,sold\nMia,2,\n`);
    await user.click(screen.getByRole("button", { name: "Check" }));

    const table = screen.getByRole("table", { name: "Checked rows" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ["Rex, Jr.", "4", "available", "OK"],
      ["   ", "0", "", "Name must not be empty; Category ID must be at least 1"],
      ["Tom", "1.5", "sold", "Category ID must be an integer"],
      ["Mia", "2", "", "OK"],
    ]);
    expect(rows.map((row) => within(row).getByRole("rowheader").textContent)).toEqual(["2", "3", "4", "5"]);
    expect(screen.getByText("4 rows: 2 ready to import, 2 rows with errors (not imported).")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Checked rows" })).toHaveFocus();
    expect(screen.getByRole("button", { name: "Import 2 pets" })).toBeEnabled();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("fills the text area from a CSV file", async () => {
    const { user } = renderApp("/pets/import", fakePetStore().handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    const csv = `${HEADER}\nRex,4,available\n`;
    await user.upload(screen.getByLabelText("CSV file"), new File([csv], "pets.csv", { type: "text/csv" }));
    await waitFor(() => expect(screen.getByLabelText("Pets as CSV")).toHaveValue(csv));
  });

  it("says what is wrong with text that has no header", async () => {
    const { user, requests } = renderApp("/pets/import", fakePetStore().handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    await pasteCsv(user, "Rex,4,available\n");
    await user.click(screen.getByRole("button", { name: "Check" }));
    expect(screen.getByRole("alert")).toHaveTextContent("The first line must be the header name,categoryId,status.");
    expect(screen.queryByRole("button", { name: /^Import/ })).not.toBeInTheDocument();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("imports the valid rows, each with its own key, at most 4 in flight, and shows them in the list", async () => {
    const store = fakePetStore();
    // From the list, so it is cached before the import and must be asked again after.
    const { user, requests } = renderApp("/pets", store.handler);
    expect(await screen.findByText(/no pets/i)).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Import pets" }));
    const names = Array.from({ length: 10 }, (_, index) => `Pet ${index + 1}`);
    await pasteCsv(user, [HEADER, ...names.map((name) => `${name},3,available`), "Broken,0,"].join("\n"));
    await user.click(screen.getByRole("button", { name: "Check" }));
    await user.click(screen.getByRole("button", { name: "Import 10 pets" }));

    expect(screen.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute("aria-valuemax", "10");
    // The button that started the run is gone; focus stays in the results, not lost on the page.
    expect(screen.queryByRole("button", { name: "Import 10 pets" })).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Checked rows" })).toHaveFocus();
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Imported 10 pets."));
    expect(screen.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute("aria-valuenow", "10");
    expect(store.mostInFlight).toBe(4);
    const keys = await postedKeys(requests);
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(10);
    expect([...store.saved.values()].map((pet) => pet.name).sort()).toEqual([...names].sort());
    const table = screen.getByRole("table", { name: "Checked rows" });
    expect(within(table).getByRole("row", { name: /Pet 1 3 available Imported \(id \d+\)/ })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retry failed rows" })).not.toBeInTheDocument();

    // The list asks again, so the new pets show.
    await user.click(screen.getByRole("link", { name: "Pets" }));
    expect(await screen.findByRole("rowheader", { name: "Pet 10" })).toBeInTheDocument();
  });

  it("lists a row that kept failing, and Retry failed rows resends it with the same key", async () => {
    let networkDown = true;
    const store = fakePetStore((pet, attempt) => {
      if (pet.name !== "Unlucky") return undefined;
      // Saved on the first attempt, but the answer is lost; then the network stays down until the test says.
      if (attempt === 1) return "answer lost";
      return networkDown ? "network down" : undefined;
    });
    const { user, requests, sleeps } = renderApp("/pets/import", store.handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    await pasteCsv(user, `${HEADER}\nLucky,1,\nUnlucky,2,sold\nAlso lucky,3,\n`);
    await user.click(screen.getByRole("button", { name: "Check" }));
    await user.click(screen.getByRole("button", { name: "Import 3 pets" }));

    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent("Imported 2 pets. 1 row was not imported."),
    );
    const notImported = await screen.findByRole("region", { name: "Rows not imported" });
    expect(notImported).toHaveTextContent(
      "Line 3, Unlucky: The API could not be reached. Check your connection and try again.",
    );
    const firstKeys = await postedKeys(requests, "Unlucky");
    expect(firstKeys).toHaveLength(4);
    expect(new Set(firstKeys).size).toBe(1);
    expect(sleeps.length).toBeGreaterThanOrEqual(3);

    networkDown = false;
    await user.click(screen.getByRole("button", { name: "Retry failed rows" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Imported 3 pets."));
    const allKeys = await postedKeys(requests, "Unlucky");
    expect(allKeys).toHaveLength(5);
    expect(new Set(allKeys).size).toBe(1);
    // Only the failed row went again, and the replay did not add Unlucky twice.
    expect(await postedKeys(requests)).toHaveLength(4 + 2 + 1);
    expect([...store.saved.values()].map((pet) => pet.name).sort()).toEqual(["Also lucky", "Lucky", "Unlucky"]);
    expect(screen.queryByRole("region", { name: "Rows not imported" })).not.toBeInTheDocument();
  });

  it("waits out a 429's Retry-After, then sends the row again", async () => {
    const store = fakePetStore((_pet, attempt) =>
      attempt === 1
        ? errorResponse(429, "RATE_LIMITED", "Too many requests for this API key.", undefined, { "Retry-After": "3" })
        : undefined,
    );
    const { user, sleeps } = renderApp("/pets/import", store.handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    await pasteCsv(user, `${HEADER}\nRex,1,\n`);
    await user.click(screen.getByRole("button", { name: "Check" }));
    await user.click(screen.getByRole("button", { name: "Import 1 pet" }));

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Imported 1 pet."));
    expect(sleeps).toEqual([3000]);
    expect(store.saved.size).toBe(1);
  });

  it("slows down by the API's RateLimit before the key's budget is spent: no 429", async () => {
    // An API with a budget of 6 creates per 60 s window, whose clock is the app's waits. (The fake's time jumps
    // the moment a wait starts, so creates still on their way count in the next window: 8 rows stay clear of that.)
    const QUOTA = 6;
    let sleeps: number[] = [];
    // The pacer waits t seconds less the few milliseconds since the answer; the API's clock counts whole seconds.
    const clock = () => sleeps.reduce((total, wait) => total + Math.ceil(wait / 1000) * 1000, 0);
    let windowStart = 0;
    let spent = 0;
    const statuses: number[] = [];
    const store = fakePetStore(() => {
      const now = clock();
      if (now >= windowStart + 60_000) [windowStart, spent] = [now, 0];
      spent++;
      const left = Math.max(0, QUOTA - spent);
      const reset = Math.ceil((windowStart + 60_000 - now) / 1000);
      const headers = { RateLimit: `"per-key";r=${left};t=${reset}`, "RateLimit-Policy": `"per-key";q=${QUOTA};w=60` };
      if (spent > QUOTA) {
        statuses.push(429);
        return errorResponse(429, "RATE_LIMITED", "Too many requests for this API key.", undefined, {
          ...headers,
          "Retry-After": String(reset),
        });
      }
      statuses.push(201);
      return { headers };
    });
    const app = renderApp("/pets/import", store.handler);
    await screen.findByLabelText("Pets as CSV"); // the page's code arrives first
    sleeps = app.sleeps;
    await pasteCsv(app.user, [HEADER, ...Array.from({ length: 8 }, (_, index) => `Pet ${index + 1},1,`)].join("\n"));
    await app.user.click(screen.getByRole("button", { name: "Check" }));
    await app.user.click(screen.getByRole("button", { name: "Import 8 pets" }));

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Imported 8 pets."));
    expect(statuses, JSON.stringify({ statuses, sleeps })).toEqual(Array(8).fill(201));
    // 8 creates, 6 per window: one wait for the window to reset, (about) the whole minute.
    expect(sleeps).toHaveLength(1);
    for (const wait of sleeps) {
      expect(wait).toBeGreaterThan(59_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
    expect(store.saved.size).toBe(8);
  });
});
