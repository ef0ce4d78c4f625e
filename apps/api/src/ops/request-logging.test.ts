import { CreatedApiKey } from "@petstore/contract";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  configuredKeyIdOn,
  createTestApp,
  SECOND_TEST_KEY,
  TEST_KEY,
  TEST_PROVIDERS,
  type TestApp,
} from "../test/test-app.js";

interface RequestLine {
  level: number;
  msg: string;
  req: { id: string; method: string; url: string };
  res: { statusCode: number };
  clientAddress?: string;
  keyId?: string;
  keyPrefix?: string;
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

describe.each(TEST_PROVIDERS)("the log line of a refused request on %s", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ AUTH_FAILURES_PER_MIN: "3", RATE_LIMIT_PER_MIN: "4" }, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  const lineOf = (response: request.Response): RequestLine => {
    const id = response.headers["x-request-id"];
    const lines = t.logs
      .map((line) => JSON.parse(line) as RequestLine)
      .filter((line) => line.req?.id === id && line.msg === "request completed");
    expect(lines, `one line for request ${id}`).toHaveLength(1);
    return lines[0]!;
  };
  const issue = async (scope: string) =>
    CreatedApiKey.parse(
      (
        await request(t.app)
          .post("/admin/v1/keys")
          .set("Authorization", bearer())
          .send({ name: `${scope} key`, scope })
          .expect(201)
      ).body,
    );

  it("every 401, 403 and 429 names the client address, method and path, and the key's id or prefix when one was recognised; never a secret", async () => {
    const reader = await issue("read");
    const revoked = await issue("write");
    await request(t.app).post(`/admin/v1/keys/${revoked.key.id}/revoke`).set("Authorization", bearer()).expect(200);

    const forbidden = await request(t.app)
      .post("/v1/pets")
      .set("Authorization", `Bearer ${reader.secret}`)
      .send({ name: "Rex", categoryId: 1 });
    expect(forbidden.status).toBe(403);
    expect(lineOf(forbidden)).toMatchObject({
      req: { method: "POST", url: "/v1/pets" },
      res: { statusCode: 403 },
      clientAddress: expect.stringMatching(LOOPBACK),
      keyId: String(reader.key.id),
    });

    const missing = await request(t.app).get("/v1/pets?limit=2");
    expect(missing.status).toBe(401);
    const missingLine = lineOf(missing);
    expect(missingLine).toMatchObject({
      req: { method: "GET", url: "/v1/pets?limit=2" },
      res: { statusCode: 401 },
      clientAddress: expect.stringMatching(LOOPBACK),
    });
    expect(missingLine.keyId).toBeUndefined();
    expect(missingLine.keyPrefix).toBeUndefined();

    const wrong = await request(t.app)
      .get("/admin/v1/keys")
      .set("Authorization", "Bearer wrong-configured-key-guess-0123456789");
    expect(wrong.status).toBe(401);
    const wrongLine = lineOf(wrong);
    expect(wrongLine).toMatchObject({
      req: { method: "GET", url: "/admin/v1/keys" },
      clientAddress: expect.stringMatching(LOOPBACK),
    });
    expect(wrongLine.keyId).toBeUndefined();
    expect(wrongLine.keyPrefix).toBeUndefined();

    // A revoked key is not recognised as a caller, but its prefix (shown in the key list) says which key is still in use.
    const stale = await request(t.app).get("/v1/pets").set("Authorization", `Bearer ${revoked.secret}`);
    expect(stale.status).toBe(401);
    expect(lineOf(stale)).toMatchObject({
      clientAddress: expect.stringMatching(LOOPBACK),
      keyPrefix: revoked.key.prefix,
    });

    // The address's failure budget (3) is spent: a 429 with no key.
    const tooManyFailures = await request(t.app).get("/v1/pets").set("Authorization", "Bearer another-guess");
    expect(tooManyFailures.status).toBe(429);
    expect(lineOf(tooManyFailures)).toMatchObject({
      res: { statusCode: 429 },
      clientAddress: expect.stringMatching(LOOPBACK),
    });

    // The second configured key's per-key budget (4): the fifth request is a 429 naming the key.
    let last: request.Response | undefined;
    for (let i = 0; i < 5; i++)
      last = await request(t.app).get("/v1/pets").set("Authorization", bearer(SECOND_TEST_KEY));
    expect(last!.status).toBe(429);
    expect(lineOf(last!)).toMatchObject({
      req: { method: "GET", url: "/v1/pets" },
      res: { statusCode: 429 },
      clientAddress: expect.stringMatching(LOOPBACK),
      keyId: await configuredKeyIdOn(t.database, SECOND_TEST_KEY),
    });

    const logs = t.logs.join("\n");
    for (const secret of [
      TEST_KEY,
      SECOND_TEST_KEY,
      "wrong-configured-key-guess",
      "another-guess",
      reader.secret.slice(12),
      revoked.secret.slice(12),
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});
