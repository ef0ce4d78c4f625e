import { initContract } from "@ts-rest/core";
import { z } from "zod";

// A contract with a route of each kind, so these facts are read from routes, not from petstore's names.
const c = initContract();
export const thingsContract = c.router(
  {
    listThings: { method: "GET", path: "/things", responses: { 200: z.array(z.string()) } },
    addThing: {
      method: "POST",
      path: "/things",
      body: z.object({ name: z.string() }),
      headers: z.object({ "x-trace-token": z.string().optional() }),
      responses: { 201: z.string() },
    },
    uploadThing: {
      method: "PUT",
      path: "/things/:id",
      contentType: "multipart/form-data",
      body: c.type<unknown>(),
      responses: { 204: c.noBody() },
    },
    oldThing: {
      method: "GET",
      path: "/things/:id",
      deprecated: true,
      metadata: {
        deprecation: {
          deprecatedAt: new Date("2026-01-01T00:00:00Z"),
          sunsetAt: new Date("2030-12-05T00:00:00Z"),
          successor: "/v9/things",
        },
      },
      responses: { 200: z.string() },
    },
  },
  { pathPrefix: "/v9" },
);
