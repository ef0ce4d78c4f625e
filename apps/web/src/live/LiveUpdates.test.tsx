import type { Event, Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { petListRequests, withCategories } from "../test/fake-store.js";
import { jsonResponse, renderApp } from "../test/render-app.js";
import { createStreamParser, type StreamMessage } from "./event-stream-reader.js";
import { liveEventSentence } from "./live-event-words.js";

const rexSold = (position: string): Event => ({
  id: "msg_1",
  position,
  type: "pet.updated",
  timestamp: "2026-11-29T10:00:00.000Z",
  data: { pet: { id: 1, name: "Rex", categoryId: 1, status: "sold" }, previousAttributes: { status: "available" } },
});

describe("live updates", () => {
  it("refetch the pets list when someone else changes a pet, keep the focus and the selection, and say what changed", async () => {
    let pets: Pet[] = [
      { id: 1, name: "Rex", categoryId: 1, status: "available" },
      { id: 2, name: "Bella", categoryId: 2, status: "pending" },
    ];
    const { requests, liveEvents, user } = renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, pets)),
    );
    const table = await screen.findByRole("table", { name: "Pets" });
    await waitFor(() => expect(liveEvents.count).toBe(1));
    const bella = within(table).getByRole("checkbox", { name: "Select Bella" });
    await user.click(bella);
    const listsBefore = petListRequests(requests).length;

    pets = [{ ...pets[0]!, status: "sold" }, pets[1]!];
    liveEvents.send(rexSold("0-7"));

    expect(await screen.findByText("Rex was marked sold.")).toBeInTheDocument();
    await waitFor(() => expect(petListRequests(requests).length).toBeGreaterThan(listsBefore));
    await waitFor(() =>
      expect(within(screen.getByRole("table", { name: "Pets" })).getAllByText("sold").length).toBeGreaterThan(0),
    );
    expect(screen.getByRole("checkbox", { name: "Select Bella" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Select Bella" })).toHaveFocus();
    expect(screen.getByText("Rex was marked sold.").closest("[aria-live]")).toHaveAttribute("aria-live", "polite");
  });
});

describe("the event stream's parsing and words", () => {
  it("splits messages across chunks, joins data lines, reads retry and skips comments", () => {
    const messages: StreamMessage[] = [];
    const parse = createStreamParser((message) => messages.push(message));
    parse("retry: 1000\n\n: keep-alive\n\nid: 0-1\nevent: pet.cre");
    parse('ated\ndata: {"a":\ndata: 1}\n\n');
    expect(messages).toEqual([{ retry: 1000 }, { id: "0-1", event: "pet.created", data: '{"a":\n1}' }]);
  });

  it("says each pet change in a sentence", () => {
    const pet = { id: 1, name: "Rex", categoryId: 1 };
    expect(liveEventSentence({ type: "pet.created", data: pet })).toBe("Rex was added.");
    expect(liveEventSentence({ type: "pet.deleted", data: pet })).toBe("Rex was deleted.");
    expect(liveEventSentence({ type: "pet.restored", data: pet })).toBe("Rex was restored.");
    expect(liveEventSentence(rexSold("0-1"))).toBe("Rex was marked sold.");
    expect(
      liveEventSentence({
        type: "pet.updated",
        data: { pet: { ...pet, name: "Max" }, previousAttributes: { name: "Rex" } },
      }),
    ).toBe("Rex was renamed Max.");
    expect(liveEventSentence({ type: "pet.updated", data: { pet, previousAttributes: { status: "sold" } } })).toBe(
      "Rex's status was cleared.",
    );
    expect(liveEventSentence(rexSold("0-1"), "Ana")).toBe("Rex was marked sold by Ana.");
    expect(liveEventSentence({ type: "key.created", data: {} as never })).toBeUndefined();
  });
});

describe("live updates beside a form", () => {
  it("keep what staff typed in New pet when another pet's event arrives", async () => {
    const { liveEvents, user } = renderApp(
      "/pets/new",
      withCategories(() => jsonResponse(200, [])),
      { session: { keyId: "7", staffId: null, name: "Front desk", scope: "write", expiresAt: null } },
    );
    const name = await screen.findByLabelText("Name");
    await waitFor(() => expect(liveEvents.count).toBe(1));
    await user.type(name, "Biscuit");
    liveEvents.send({ ...rexSold("0-9"), type: "pet.created", data: { id: 9, name: "Stray", categoryId: 1 } });
    expect(await screen.findByText("Stray was added.")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.getByLabelText("Name")).toHaveValue("Biscuit");
  });
});

describe("live updates name who changed the pet", () => {
  it("say who, from the pet's history entry of that change", async () => {
    const pets: Pet[] = [{ id: 1, name: "Rex", categoryId: 1, status: "sold" }];
    const event = rexSold("0-8");
    const { liveEvents } = renderApp(
      "/pets",
      withCategories((request) =>
        new URL(request.url).pathname === "/v1/pets/1/history"
          ? jsonResponse(200, [
              {
                at: event.timestamp,
                action: "pet.updated",
                by: { kind: "staff", name: "Ana" },
                changes: [{ field: "status", from: "available", to: "sold" }],
              },
            ])
          : jsonResponse(200, pets),
      ),
    );
    await screen.findByRole("table", { name: "Pets" });
    await waitFor(() => expect(liveEvents.count).toBe(1));
    liveEvents.send(event);
    expect(await screen.findByText("Rex was marked sold by Ana.")).toBeInTheDocument();
  });
});
