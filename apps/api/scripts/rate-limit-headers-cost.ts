/**
 * What the RateLimit header fields cost per request: the count with its numbers
 * (`count`) against the bare decision (`consume`), and setting `RateLimit` and
 * `RateLimit-Policy` on a real `ServerResponse`. Prints µs per request, the
 * median of rounds.
 *
 *   corepack pnpm --filter @petstore/api rate-limit-headers-cost [rounds, default 7]
 *
 * A figure, not a test: it goes into docs/performance.md.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { RateLimitFields } from "../src/access/rate-limit-headers.js";
import { memoryLimiter, type LimitCount } from "../src/access/rate-limit.js";
import { RateLimiterMemory } from "rate-limiter-flexible";

const ROUNDS = Number(process.argv[2] ?? 7);
const PER_ROUND = 200_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function perCall(label: string, run: (i: number) => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const result = run(i);
      if (result instanceof Promise) await result;
    }
    const micros = Number(process.hrtime.bigint() - started) / 1000 / PER_ROUND;
    if (round > 0) rounds.push(micros); // the first round warms up
  }
  const result = median(rounds);
  console.log(`${label.padEnd(58)} ${result.toFixed(3)} µs`);
  return result;
}

// A budget that is never spent, over 1000 keys, as the hot path meets it.
const QUOTA = 1_000_000_000;
const keys = Array.from({ length: 1000 }, (_, i) => `key-${i}`);
// Before: the key check awaited the library's count and kept a constant decision.
const counter = new RateLimiterMemory({ points: QUOTA, duration: 60 });
const ALLOWED = { allowed: true };
const consume = await perCall("before: library count, constant decision", (i) =>
  counter.consume(keys[i % 1000] as string).then(() => ALLOWED),
);
// Now: the count with what is left and when it resets.
const limiter = memoryLimiter(QUOTA);
const count = await perCall("now: count with remaining and reset", (i) => limiter.count(keys[i % 1000] as string));

const fields = new RateLimitFields("per-key", limiter);
const sample: LimitCount = { allowed: true, remaining: 1187, resetSeconds: 42 };
const responses = (n: number) => Array.from({ length: n }, () => new ServerResponse(new IncomingMessage(new Socket())));
// A pool of real responses, made before the clock starts. (Fresh ones per call would time the
// garbage collection of their sockets instead; Node stores a header the same way whether new or replaced.)
const pool = responses(1000);
const headers = await perCall("RateLimit + RateLimit-Policy set on a ServerResponse", (i) =>
  fields.set(pool[i % 1000] as ServerResponse, { ...sample, remaining: i }),
);

// On a shared machine the two counts differ by noise; a faster "now" counts as no cost.
const added = Math.max(0, count - consume) + headers;
console.log(`${"added per counted request (count's extra, if any, + headers)".padEnd(58)} ${added.toFixed(3)} µs`);
