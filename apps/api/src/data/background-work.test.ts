import { describe, expect, it } from "vitest";
import { BackgroundWorkRefused, createBackgroundWork } from "./background-work.js";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("background work", () => {
  it("drain() resolves only once every piece of work in flight has settled, failed ones included", async () => {
    const work = createBackgroundWork();
    const first = deferred();
    const second = deferred();
    void work.run(() => first.promise);
    work.run(() => second.promise).catch(() => {});
    expect(work.inFlight).toBe(2);
    let drained = false;
    const draining = work.drain().then(() => (drained = true));
    first.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(drained).toBe(false);
    second.reject(new Error("the write failed"));
    await draining;
    expect(work.inFlight).toBe(0);
  });

  it("refuses work once drain() began, without running it", async () => {
    const work = createBackgroundWork();
    await work.drain();
    let ran = false;
    await expect(work.run(async () => (ran = true))).rejects.toBeInstanceOf(BackgroundWorkRefused);
    expect(ran).toBe(false);
  });

  it("hands back the work's own result", async () => {
    await expect(createBackgroundWork().run(async () => 42)).resolves.toBe(42);
  });
});
