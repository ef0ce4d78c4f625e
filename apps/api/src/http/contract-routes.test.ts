import type { AppRoute } from "@ts-rest/core";
import { operationsOf, v1Contract } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { thingsContract } from "../test/things-contract.js";
import {
  allowedMethodsByPath,
  contractRoutes,
  operationMethods,
  operationRequestHeaders,
  pathParamsReader,
  routeMatcher,
} from "./contract-routes.js";

const routes = contractRoutes(thingsContract);

describe("route facts read from the contract", () => {
  it("knows each operation's method and prefixed path, and which take a JSON body", () => {
    expect(
      routes.map(({ operation, method, path, takesJsonBody }) => ({ operation, method, path, takesJsonBody })),
    ).toEqual([
      { operation: "listThings", method: "GET", path: "/v9/things", takesJsonBody: false },
      { operation: "addThing", method: "POST", path: "/v9/things", takesJsonBody: true },
      { operation: "uploadThing", method: "PUT", path: "/v9/things/:id", takesJsonBody: false },
      { operation: "oldThing", method: "GET", path: "/v9/things/:id", takesJsonBody: false },
    ]);
  });

  it("lists each path's methods: HEAD with GET, OPTIONS always", () => {
    expect(Object.fromEntries(allowedMethodsByPath(routes))).toEqual({
      "/v9/things": ["GET", "HEAD", "OPTIONS", "POST"],
      "/v9/things/:id": ["GET", "HEAD", "OPTIONS", "PUT"],
    });
  });

  it("gives CORS the operations' methods and declared request headers", () => {
    expect(operationMethods(routes)).toEqual(["GET", "POST", "PUT"]);
    expect(operationRequestHeaders(routes)).toEqual(["Authorization", "Content-Type", "X-Trace-Token"]);
  });

  it("the petstore contract: every operation, with its method, prefixed path, body and deprecation", () => {
    // Derived from the contract, so a new operation needs no edit here.
    expect(
      contractRoutes().map(({ operation, method, path, takesJsonBody, deprecation }) => [
        operation,
        method,
        path,
        takesJsonBody,
        deprecation !== undefined,
      ]),
    ).toEqual(
      Object.entries(operationsOf(v1Contract)).map(([operation, route]) => [
        operation,
        route.method,
        route.path,
        (route.method === "POST" || route.method === "PATCH") && "body" in route && typeof route.body !== "symbol",
        (route as AppRoute).deprecated === true,
      ]),
    );
    expect(contractRoutes().every((route) => route.path.startsWith("/v1/"))).toBe(true);
  });
});

describe("routeMatcher", () => {
  const routeOf = routeMatcher(routes);
  it.each([
    ["GET", "/v9/things", "listThings"],
    ["HEAD", "/v9/things", "listThings"],
    ["GET", "/v9/things/", "listThings"],
    ["POST", "/V9/THINGS", "addThing"],
    ["PUT", "/v9/things/7", "uploadThing"],
    ["GET", "/v9/things/a.b", "oldThing"],
    ["HEAD", "/v9/things/7", "oldThing"],
    ["DELETE", "/v9/things/7", undefined],
    ["GET", "/v9/things/7/x", undefined],
    ["GET", "/v9/thingsx", undefined],
    ["GET", "/v9//things", undefined],
  ])("%s %s -> %s", (method, path, operation) => {
    expect(routeOf(method, path)?.operation).toBe(operation);
  });
});

describe("pathParamsReader", () => {
  const read = pathParamsReader("/v9/things/:id/parts/:part");
  it("reads each parameter by name, as Express matches the path (case, one trailing slash)", () => {
    expect(read("/v9/things/7/parts/wheel")).toEqual({ id: "7", part: "wheel" });
    expect(read("/V9/Things/7/PARTS/Wheel/")).toEqual({ id: "7", part: "Wheel" });
    expect(read("/v9/things/7/parts")).toBeUndefined();
    expect(read("/v9/things/7/parts/wheel/x")).toBeUndefined();
  });

  it("percent-decodes as Express does, and names a malformed value in a 400 URIError", () => {
    expect(read("/v9/things/%37%20x/parts/a%2Fb")).toEqual({ id: "7 x", part: "a/b" });
    expect(() => read("/v9/things/%E0%A4%A/parts/a")).toThrow(
      expect.objectContaining({ name: "URIError", status: 400, message: "Failed to decode param '%E0%A4%A'" }),
    );
  });
});
