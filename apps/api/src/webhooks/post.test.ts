import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { post, requestFailure } from "./post.js";

describe("a failed webhook POST, in words", () => {
  it("says a refused connection in a sentence, without Node's code", async () => {
    // A port that was just free: nothing listens there now.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const url = new URL(`http://127.0.0.1:${port}/hook`);
    const result = await post({ url, address: "127.0.0.1", family: 4 }, {}, "{}", 2_000, new AbortController().signal);
    expect(result).toMatchObject({ statusCode: null, answer: "" });
    expect(result.error).toBe("The endpoint refused the connection: nothing is listening at that address and port.");
  });

  it("names a failure it has no words for as Node does", () => {
    expect(requestFailure(Object.assign(new Error("x"), { code: "EPROTO" }))).toBe("The request failed: EPROTO.");
    expect(requestFailure(new Error("socket hang up"))).toBe("The request failed: socket hang up.");
  });
});
