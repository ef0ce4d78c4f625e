import { ErrorBody } from "@petstore/contract";
import type request from "supertest";
import { expect } from "vitest";

/** Asserts the response is the Error JSON with this status and code; returns the body. */
export function expectError(response: request.Response, status: number, code: string): ErrorBody {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const body = ErrorBody.parse(response.body);
  // `issues` (field by field) comes with validation failures only.
  expect(body).toEqual({
    code,
    message: expect.any(String),
    status,
    ...(code === "VALIDATION_ERROR" && body.issues ? { issues: expect.any(Array) } : {}),
  });
  return body;
}
