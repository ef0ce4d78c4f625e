import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerCheck, sampleAnswer } from "./answers.js";
import type { RunningServer } from "./server-process.js";
import { updatePatch } from "./scenarios.js";

/**
 * updatePet's probe against a node:http server in this process answering as a build would: the current API
 * (200, the pet as it is), a build before updatePet (405, or 404 with no route), or something else.
 */
describe("AnswerCheck.servesScenario", () => {
  let server: Server;
  let running: RunningServer;
  let status = 200;
  let pet = { id: 1, name: "pet 1", categoryId: 2, status: "pending" };
  const seen: { method: string; path: string; body: string; contentType: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        seen.push({
          method: req.method ?? "",
          path: req.url ?? "",
          body,
          contentType: req.headers["content-type"] ?? "",
        });
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(status === 200 ? JSON.stringify(pet) : JSON.stringify({ code: "X", status }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    running = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      child: undefined as never,
      stderr: () => "",
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks with a patch that changes nothing: a lone test of pet 1's seeded category", async () => {
    seen.length = 0;
    status = 200;
    expect(
      await new AnswerCheck(() => {}).servesScenario(running, "sqlite", "api", 10_000, "key", "updatePet"),
    ).toMatchObject({ served: true });
    expect(seen).toEqual([
      {
        method: "PATCH",
        path: "/v1/pets/1",
        body: '[{"op":"test","path":"/categoryId","value":2}]',
        contentType: "application/json",
      },
    ]);
  });

  it("leaves out a build that answers 405 or 404, with its answer", async () => {
    for (const refused of [405, 404]) {
      status = refused;
      const probe = await new AnswerCheck(() => {}).servesScenario(
        running,
        "sqlite",
        "api",
        10_000,
        "key",
        "updatePet",
      );
      expect(probe).toEqual({ served: false, answer: `${refused} {"code":"X","status":${refused}}` });
    }
  });

  it("throws on any other answer, and on a 2xx that differs from the first target's", async () => {
    const check = new AnswerCheck(() => {});
    status = 403;
    await expect(check.servesScenario(running, "sqlite", "api-token", 10_000, "key", "updatePet")).rejects.toThrow(
      "api-token (sqlite, 10k) answers updatePet's probe",
    );
    status = 200;
    await check.servesScenario(running, "sqlite", "api", 10_000, "key", "updatePet");
    pet = { ...pet, name: "renamed" };
    try {
      await expect(check.servesScenario(running, "sqlite", "api-issued", 10_000, "key", "updatePet")).rejects.toThrow(
        "answers updatePet's probe differently",
      );
    } finally {
      pet = { ...pet, name: "pet 1" };
    }
  });

  it("samples one updatePet request of a failing run: the patch the run sends", async () => {
    seen.length = 0;
    status = 409;
    expect(
      await sampleAnswer({
        url: running.url,
        apiKey: "key",
        scenario: "updatePet",
        connections: 1,
        durationSeconds: 1,
        maxId: 1,
      }),
    ).toMatch(/^409 /);
    expect(seen[0]).toMatchObject({ method: "PATCH", path: "/v1/pets/1", body: updatePatch(1, "bench sample") });
  });
});
