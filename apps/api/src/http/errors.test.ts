import { ERROR_ISSUE_MESSAGE_MAX_LENGTH, ERROR_MESSAGE_MAX_LENGTH } from "@petstore/contract";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, type TestApp } from "../test/test-app.js";

describe("Error bodies stay within the contract's bounds", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("cuts an issue that quotes a long value to its maxLength, ending it with …", async () => {
    // zod's enum message quotes the value received: without the cut, its length would be the client's to choose.
    const response = await request(t.app)
      .get(`/v1/pets?status=${"x".repeat(5000)}`)
      .set("Authorization", bearer());
    const error = expectError(response, 400, "VALIDATION_ERROR");
    expect(error.issues?.[0]?.field).toBe("query.status");
    expect(error.issues?.[0]?.message).toHaveLength(ERROR_ISSUE_MESSAGE_MAX_LENGTH);
    expect(error.issues?.[0]?.message.endsWith("…")).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX_LENGTH);
  });

  it("leaves a message within the bound as it is", async () => {
    const response = await request(t.app).get("/v1/pets?limit=101").set("Authorization", bearer());
    expect(expectError(response, 400, "VALIDATION_ERROR").message).toBe(
      "Invalid request: query.limit: limit must be at most 100.",
    );
  });

  it("cuts a message that quotes a long path to Error.message's maxLength, ending it with …", async () => {
    const response = await request(t.app)
      .get(`/v1/${"a".repeat(4000)}`)
      .set("Authorization", bearer());
    const { message } = expectError(response, 404, "NOT_FOUND");
    expect(message).toHaveLength(ERROR_MESSAGE_MAX_LENGTH);
    expect(message.endsWith("…")).toBe(true);
  });
});
