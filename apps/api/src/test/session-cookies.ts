import { SESSION_COOKIE_NAME } from "@petstore/contract";
import type request from "supertest";
import { expect } from "vitest";

/** A clock that starts now and that tests move forward (timeouts, expiries). */
export function movableClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, move: (ms: number) => void (offset += ms) };
}

/** The session cookie's value a response sets (the test fails when it sets none). */
export function sessionCookieOf(response: request.Response): string {
  const header = ([] as string[])
    .concat(response.headers["set-cookie"] ?? [])
    .find((line) => line.startsWith(`${SESSION_COOKIE_NAME}=`));
  expect(header, "a session cookie is set").toBeDefined();
  return header!.slice(SESSION_COOKIE_NAME.length + 1).split(";")[0]!;
}

/** The `Cookie` header that sends a session cookie's value back. */
export const sessionCookieHeader = (value: string): string => `${SESSION_COOKIE_NAME}=${value}`;
