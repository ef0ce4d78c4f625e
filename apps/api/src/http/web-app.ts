import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import express, { Router, type Request } from "express";
import { ADMIN_API_PATH_PREFIX } from "@petstore/contract";
import { API_PREFIX } from "./contract-routes.js";
import { isUnder } from "./express-tuning/middleware-composition.js";
import { copiesBeside, precompressedAssets, sendPrecompressed } from "./precompressed-assets.js";
import type { HeaderSet } from "./security-headers.js";

/** Paths the admin app never answers: the API, its docs, the metrics and the probes keep their own answers and JSON 404s. */
const NOT_THE_APP = [API_PREFIX, ADMIN_API_PATH_PREFIX, "/docs", "/metrics", "/healthz", "/readyz"];

/** Vite's `build.assetsDir`: every file Vite writes there has a content hash in its name. */
const HASHED_ASSETS_DIR = "assets";

const isNotTheApp = NOT_THE_APP.map(isUnder);
const isHashedAsset = isUnder(`/${HASHED_ASSETS_DIR}`);

/** A browser navigation asks for a page: its Accept names `text/html` (a `*\/*` fetch, curl or a script load does not). */
function isPageNavigation(req: Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  return (req.get("Accept") ?? "").split(",").some((range) => {
    const [type = "", ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    return type === "text/html" && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
}

/**
 * The admin app's production build (`distDir`, Vite's output) at `/`: its files
 * as they are, and `index.html` for a browser navigation to any other path, so
 * the app's client-side routes (`/pets/42`, `/pets?status=sold`) survive a
 * reload. Anything else (a missing `/assets/x.js`, a non-browser request) falls
 * through to the JSON 404.
 */
export function serveWebApp(distDir: string, headers: { appPage: HeaderSet; appAsset: HeaderSet }): Router {
  const indexHtml = path.join(distDir, "index.html");
  const indexCopies = copiesBeside(indexHtml);
  const router = Router();
  router.use((req, _res, next) => {
    const lower = req.path.toLowerCase(); // as Express matches the routes these paths belong to
    next(isNotTheApp.some((matches) => matches(lower)) ? "router" : undefined);
  });
  // Brotli or gzip made at build time, for the hashed assets a client accepts them for.
  router.use(precompressedAssets(path.join(distDir, HASHED_ASSETS_DIR), `/${HASHED_ASSETS_DIR}`, headers.appAsset));
  router.use(
    express.static(distDir, {
      // index.html is answered below, for navigations only; a folder is never redirected to its slash.
      index: false,
      redirect: false,
      // Our headers name Cache-Control; serve-static keeps its ETag and Last-Modified for revalidation.
      setHeaders: (res, filePath) => {
        const [topFolder] = path.relative(distDir, filePath).split(path.sep);
        res.set(topFolder === HASHED_ASSETS_DIR ? headers.appAsset : headers.appPage);
      },
    }),
  );
  router.use((req, res, next) => {
    // A missing hashed asset is a stale or wrong link, never a client-side route.
    if (!isPageNavigation(req) || isHashedAsset(req.path.toLowerCase())) return next();
    // The page carries the app's first stylesheet inline: Brotli or gzip from the build, like the assets.
    if (indexCopies.length > 0 && sendPrecompressed(req, res, next, indexHtml, indexCopies, headers.appPage)) return;
    res.sendFile(indexHtml, { headers: headers.appPage }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}

/**
 * The Content-Security-Policy sources that let the `<style>` blocks of the build's `index.html` apply: the
 * build inlines the app's first stylesheet there (apps/web/vite.config.ts, `inlineEntryStylesheet`), and
 * `style-src 'self'` alone would drop it. Its hash, not `'unsafe-inline'`: an injected style still does not
 * apply. Read once at start, like the rest of the build.
 */
export function inlineStyleSources(distDir: string): string[] {
  const indexHtml = path.join(distDir, "index.html");
  if (!existsSync(indexHtml)) return [];
  return [...readFileSync(indexHtml, "utf8").matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    ([, css = ""]) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`,
  );
}
