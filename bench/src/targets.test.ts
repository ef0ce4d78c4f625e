import { describe, expect, it } from "vitest";
import { isKeySliced, serverOf, serverOrder, servesScenario, targetOrder } from "./targets.js";

const ONE_FLOOR = ["api", "api-issued", "production", "baseline", "postgresql"];
const BOTH_FLOORS = ["api", "api-issued", "production", "bare", "baseline", "postgresql"];

describe("targetOrder", () => {
  it("rotates the targets turn by turn, the API and its floor back to back, taking turns at going first", () => {
    expect(targetOrder(ONE_FLOOR, 0)).toEqual(["production", "api", "api-issued", "baseline"]);
    expect(targetOrder(ONE_FLOOR, 1)).toEqual(["api-issued", "baseline", "api", "production"]);
    expect(targetOrder(ONE_FLOOR, 2)).toEqual(["baseline", "production", "api", "api-issued"]);
    expect(targetOrder(ONE_FLOOR, 3)).toEqual(["api", "production", "api-issued", "baseline"]);
  });

  it("puts the API between its two floors, so each is paired with it back to back, the unit reversed in odd turns", () => {
    expect(targetOrder(BOTH_FLOORS, 0)).toEqual(["production", "api", "bare", "api-issued", "baseline"]);
    expect(targetOrder(BOTH_FLOORS, 1)).toEqual(["api-issued", "baseline", "bare", "api", "production"]);
    expect(targetOrder(BOTH_FLOORS, 2)).toEqual(["baseline", "production", "api", "bare", "api-issued"]);
    expect(targetOrder(["api", "bare"], 0)).toEqual(["bare", "api"]);
    expect(targetOrder(["api", "bare"], 1)).toEqual(["api", "bare"]);
  });

  it("rotates one target at a time without a floor", () => {
    expect(targetOrder(["api", "baseline"], 0)).toEqual(["api", "baseline"]);
    expect(targetOrder(["api", "baseline"], 1)).toEqual(["baseline", "api"]);
  });

  it("lists each server process once, api-issued being the second API process's (api-keyed)", () => {
    expect(serverOrder(ONE_FLOOR, 1)).toEqual(["api-keyed", "baseline", "api", "production"]);
    expect(serverOrder(BOTH_FLOORS, 1)).toEqual(["api-keyed", "baseline", "bare", "api", "production"]);
  });

  it("puts api-webhooks on the API's other side from a lone floor, and outside the production floor beside both", () => {
    const withWebhooks = [...ONE_FLOOR, "api-webhooks"];
    expect(targetOrder(withWebhooks, 0)).toEqual(["production", "api", "api-webhooks", "api-issued", "baseline"]);
    expect(targetOrder(withWebhooks, 1)).toEqual(["api-issued", "baseline", "api-webhooks", "api", "production"]);
    expect(targetOrder(["api", "api-webhooks"], 1)).toEqual(["api", "api-webhooks"]);
    // api-webhooks is the api process's, beside the runs it is paired with.
    expect(serverOrder(withWebhooks, 0)).toEqual(["production", "api", "api-keyed", "baseline"]);
    expect(serverOf("api-webhooks")).toBe("api");
    // Both floors keep their places beside the API; api-webhooks is one run away.
    expect(targetOrder([...BOTH_FLOORS, "api-webhooks"], 0)).toEqual([
      "api-webhooks",
      "production",
      "api",
      "bare",
      "api-issued",
      "baseline",
    ]);
    expect(targetOrder([...BOTH_FLOORS, "api-webhooks"], 1)).toEqual([
      "api-issued",
      "baseline",
      "bare",
      "api",
      "production",
      "api-webhooks",
    ]);
  });

  it("rotates api-token as a target of its own, on the second API process with api-issued, key-sliced like it", () => {
    expect(targetOrder(["api", "api-issued", "api-token", "production"], 0)).toEqual([
      "production",
      "api",
      "api-issued",
      "api-token",
    ]);
    expect(targetOrder(["api", "api-issued", "api-token", "production"], 1)).toEqual([
      "api-issued",
      "api-token",
      "api",
      "production",
    ]);
    expect(serverOf("api-token")).toBe("api-keyed");
    expect(serverOf("api-issued")).toBe("api-keyed");
    // The api process serves the api target's runs alone: the load each floor meets.
    expect(serverOrder(["api", "api-token"], 0)).toEqual(["api", "api-keyed"]);
    expect((["api-issued", "api-token", "api", "production"] as const).map((target) => isKeySliced(target))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("runs api-webhooks on createPet only", () => {
    expect(servesScenario("api-webhooks", "createPet")).toBe(true);
    expect(servesScenario("api-webhooks", "getPet")).toBe(false);
    expect(servesScenario("api", "getPet")).toBe(true);
  });
});
