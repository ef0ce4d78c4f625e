import type { Express, Response } from "express";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * `res.json` for this app: what Express 4's `res.json` sends, serialised once
 * and written with a precomputed Content-Type. Express's own goes
 * `json` -> `send`, which looks the type up, parses and re-formats it to add
 * the charset, turns a body over 1000 characters into a Buffer, and asks
 * `req.fresh`: per response, for the same bytes. The cases where Express does
 * something else (HEAD, 204/205/304, a Content-Type already set, a conditional
 * request, a body JSON.stringify cannot make a string of, the old
 * `res.json(status, body)` form) go to Express's own. Mount-independent: set
 * on this app's response prototype only; the app sets no `json replacer`,
 * `json spaces` or `json escape`.
 */
export function serialiseJsonOnce(app: Express): void {
  const expressJson = app.response.json;
  app.response.json = function json(this: Response, body?: unknown) {
    const { req, statusCode } = this;
    if (
      arguments.length !== 1 ||
      req.method === "HEAD" ||
      statusCode === 204 ||
      statusCode === 205 ||
      statusCode === 304 ||
      this.hasHeader("Content-Type") ||
      req.headers["if-none-match"] !== undefined ||
      req.headers["if-modified-since"] !== undefined
    ) {
      // eslint-disable-next-line prefer-rest-params -- the arguments exactly as given
      return expressJson.apply(this, arguments as unknown as [unknown]);
    }
    const text: string | undefined = JSON.stringify(body);
    if (typeof text !== "string") return expressJson.call(this, body);
    this.setHeader("Content-Type", JSON_CONTENT_TYPE);
    this.setHeader("Content-Length", Buffer.byteLength(text, "utf8"));
    this.end(text, "utf8");
    return this;
  };
}
