import { describe, expect, it } from "vitest";
import { serverOrder, servesScenario, targetOrder } from "./targets.js";

const ALL = ["api", "api-issued", "express", "baseline", "postgresql"];

describe("targetOrder", () => {
  it("rotates the targets turn by turn, the API and its floor back to back, taking turns at going first", () => {
    expect(targetOrder(ALL, 0)).toEqual(["api", "express", "api-issued", "baseline"]);
    expect(targetOrder(ALL, 1)).toEqual(["api-issued", "baseline", "express", "api"]);
    expect(targetOrder(ALL, 2)).toEqual(["baseline", "api", "express", "api-issued"]);
    expect(targetOrder(ALL, 3)).toEqual(["express", "api", "api-issued", "baseline"]);
  });

  it("rotates one target at a time without the floor", () => {
    expect(targetOrder(["api", "baseline"], 0)).toEqual(["api", "baseline"]);
    expect(targetOrder(["api", "baseline"], 1)).toEqual(["baseline", "api"]);
  });

  it("lists each server process once, api-issued being the api's", () => {
    expect(serverOrder(ALL, 1)).toEqual(["api", "baseline", "express"]);
  });

  it("puts api-webhooks on the API's other side in the one unit, the unit reversed in odd turns", () => {
    const withWebhooks = [...ALL, "api-webhooks"];
    expect(targetOrder(withWebhooks, 0)).toEqual(["api-webhooks", "api", "express", "api-issued", "baseline"]);
    expect(targetOrder(withWebhooks, 1)).toEqual(["api-issued", "baseline", "express", "api", "api-webhooks"]);
    expect(targetOrder(withWebhooks, 2)).toEqual(["baseline", "api-webhooks", "api", "express", "api-issued"]);
    expect(targetOrder(["api", "api-webhooks"], 1)).toEqual(["api", "api-webhooks"]);
    expect(serverOrder(withWebhooks, 0)).toEqual(["api", "express", "baseline"]);
  });

  it("runs api-webhooks on createPet only", () => {
    expect(servesScenario("api-webhooks", "createPet")).toBe(true);
    expect(servesScenario("api-webhooks", "getPet")).toBe(false);
    expect(servesScenario("api", "getPet")).toBe(true);
  });
});
