import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { HeaderSet } from "./security-headers.js";

/** What the admin app's build writes beside an asset (apps/web/vite.config.ts, `precompress`), best first. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
type Encoding = (typeof ENCODINGS)[number]["name"];

/** The JavaScript and CSS of the build, as Express's `send` would type the uncompressed file. */
const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};

/**
 * The encoding to send among `available`: the one the client rates highest (`q`), Brotli before gzip when
 * it rates them alike, whatever order it lists them in (Express's `acceptsEncodings` follows the client's
 * order, and Chromium lists gzip first). None when it accepts neither.
 */
export function bestEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[],
): (typeof ENCODINGS)[number] | undefined {
  const quality = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    if (name) quality.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  let best: (typeof ENCODINGS)[number] | undefined;
  let bestQuality = 0;
  for (const encoding of ENCODINGS) {
    if (!available.includes(encoding.name)) continue;
    const q = quality.get(encoding.name) ?? quality.get("*") ?? 0;
    if (q > bestQuality) [best, bestQuality] = [encoding, q];
  }
  return best;
}

/**
 * The build's hashed assets in Brotli or gzip, made once at build time, for a client that accepts them:
 * `Content-Encoding`, the original's `Content-Type`, `Vary: Accept-Encoding` (on the uncompressed answer
 * of such a file too, so a shared cache keeps them apart). Nothing is compressed per request. A file
 * without a compressed copy, or a client that accepts neither, falls through to the static files.
 *
 * Written here rather than taken from express-static-gzip: it is twenty lines, and it keeps the app's
 * own header sets and its rule that only hashed assets are cached for a year.
 */
export function precompressedAssets(assetsDir: string, urlPrefix: string, headers: HeaderSet): RequestHandler {
  const variants = new Map<string, Encoding[]>();
  if (existsSync(assetsDir)) {
    const files = new Set(readdirSync(assetsDir));
    for (const file of files) {
      const found = ENCODINGS.filter(({ suffix }) => files.has(file + suffix)).map(({ name }) => name);
      if (found.length > 0 && CONTENT_TYPES[path.extname(file)]) variants.set(`${urlPrefix}/${file}`, found);
    }
  }
  return (req: Request, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const available = variants.get(req.path);
    if (
      !available ||
      !sendPrecompressed(req, res, next, path.join(assetsDir, path.basename(req.path)), available, headers)
    )
      next();
  };
}

/** Which precompressed copies the build wrote beside `file`. */
export function copiesBeside(file: string): Encoding[] {
  return ENCODINGS.filter(({ suffix }) => existsSync(file + suffix)).map(({ name }) => name);
}

/**
 * Sends the copy of `file` the client rates best among `available`, typed as `file` with its
 * `Content-Encoding`, and marks the answer `Vary: Accept-Encoding` either way. False when the client accepts
 * none of them: the caller sends `file` itself.
 */
export function sendPrecompressed(
  req: Request,
  res: Response,
  next: NextFunction,
  file: string,
  available: readonly Encoding[],
  headers: HeaderSet,
): boolean {
  res.vary("Accept-Encoding");
  const encoding = bestEncoding(req.get("Accept-Encoding"), available);
  if (!encoding) return false;
  res.setHeader("Content-Type", CONTENT_TYPES[path.extname(file)]!);
  res.setHeader("Content-Encoding", encoding.name);
  res.sendFile(file + encoding.suffix, { headers, dotfiles: "deny" }, (error) => {
    if (error) next(error);
  });
  return true;
}
