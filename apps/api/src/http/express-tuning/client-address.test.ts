import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { socketAddressUnlessProxied } from "./client-address.js";

function appTrusting(trustProxy: unknown) {
  const app = express();
  app.set("trust proxy", trustProxy);
  socketAddressUnlessProxied(app);
  app.get("/", (req, res) => {
    res.send(req.ip);
  });
  return app;
}

describe("req.ip", () => {
  it("with no proxy trusted: the socket's address, whatever X-Forwarded-For says", async () => {
    const res = await request(appTrusting(false)).get("/").set("X-Forwarded-For", "203.0.113.9");
    expect(res.text).toMatch(/127\.0\.0\.1|::1/);
  });

  it("with a proxy trusted: Express's own answer, from X-Forwarded-For", async () => {
    const res = await request(appTrusting("loopback")).get("/").set("X-Forwarded-For", "203.0.113.9");
    expect(res.text).toBe("203.0.113.9");
  });

  it.each([["loopback"], [1], [["127.0.0.1", "::1"]]])(
    "with a proxy trusted (%j): an entry that is not an IP address is not believed, the socket's address is used",
    async (trust) => {
      for (const forged of [
        "x".repeat(100),
        `fe80::1%${"a".repeat(100)}`,
        "unknown",
        "203.0.113.9:4000",
        "[::1]",
        " ",
        "203.0.113.9, <b>",
      ]) {
        const res = await request(appTrusting(trust)).get("/").set("X-Forwarded-For", forged);
        expect(res.text, forged).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
      }
      expect((await request(appTrusting(trust)).get("/").set("X-Forwarded-For", "2001:db8::7")).text).toBe(
        "2001:db8::7",
      );
    },
  );
});
