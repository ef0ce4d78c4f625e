import { describe, expect, it } from "vitest";
import { RateLimitPacer } from "./rate-limit-pacer.js";

const rateLimited = (value: string) => new Headers({ RateLimit: value });

/** A pacer on a clock that only its sleeps move; `sleeps` records each wait. */
function pacerOnFakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  const sleep = async (milliseconds: number) => {
    sleeps.push(milliseconds);
    now += milliseconds;
  };
  return { sleeps, pacer: new RateLimitPacer(sleep, () => now) };
}

describe("RateLimitPacer", () => {
  it("sends one request until the first answer, then paces by what is left: at 0, waits for the window to reset", async () => {
    const { pacer, sleeps } = pacerOnFakeTime();
    await pacer.beforeRequest();
    let secondStarted = false;
    const second = pacer.beforeRequest().then(() => (secondStarted = true));
    await Promise.resolve();
    expect(secondStarted).toBe(false); // nothing known yet: one at a time
    pacer.observe(rateLimited('"per-key";r=2;t=30'), 0);
    await second;
    // The second spent one of the 2 left; one more may go, the next must wait for the reset.
    await pacer.beforeRequest();
    expect(sleeps).toEqual([]);
    await pacer.beforeRequest();
    expect(sleeps).toEqual([30_000]);
  });

  it("never waits when the API sends no RateLimit (the limit is off)", async () => {
    const { pacer, sleeps } = pacerOnFakeTime();
    await pacer.beforeRequest();
    pacer.observe(new Headers(), 0);
    for (let i = 0; i < 50; i++) await pacer.beforeRequest();
    expect(sleeps).toEqual([]);
  });

  it("keeps the least left of answers that arrive out of order within one window", async () => {
    const { pacer, sleeps } = pacerOnFakeTime();
    await pacer.beforeRequest();
    pacer.observe(rateLimited('"per-key";r=1;t=20'), 0);
    pacer.observe(rateLimited('"per-key";r=3;t=20'), 0); // an older answer, late
    await pacer.beforeRequest();
    await pacer.beforeRequest();
    expect(sleeps).toEqual([20_000]);
  });

  it("after a failure without a response, finds out again one request at a time", async () => {
    const { pacer } = pacerOnFakeTime();
    await pacer.beforeRequest();
    const waiting = pacer.beforeRequest();
    pacer.observe(undefined, 0); // the network failed
    await waiting; // the waiting request becomes the one that finds out
    let thirdStarted = false;
    const third = pacer.beforeRequest().then(() => (thirdStarted = true));
    await Promise.resolve();
    expect(thirdStarted).toBe(false);
    pacer.observe(new Headers(), 0);
    await third;
  });

  it("starts a waited-out window with the policy's whole quota, and ignores late answers from the window before", async () => {
    const { pacer, sleeps } = pacerOnFakeTime();
    const policy = { "RateLimit-Policy": '"per-key";q=2;w=60' };
    const first = await pacer.beforeRequest();
    pacer.observe(new Headers({ ...policy, RateLimit: '"per-key";r=1;t=60' }), first);
    const second = await pacer.beforeRequest(); // spends the last one
    const third = await pacer.beforeRequest(); // waits the window out
    expect(sleeps).toEqual([60_000]);
    expect(third).toBeGreaterThan(second);
    pacer.observe(new Headers({ ...policy, RateLimit: '"per-key";r=0;t=60' }), second); // late, from the old window
    await pacer.beforeRequest(); // the new window's second
    expect(sleeps).toEqual([60_000]);
    await pacer.beforeRequest(); // its quota of 2 is spent
    expect(sleeps).toEqual([60_000, 60_000]);
  });
});
