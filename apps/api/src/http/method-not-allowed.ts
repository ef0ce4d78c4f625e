import { Router } from "express";
import { HttpError } from "../base/http-error.js";
import { allowedMethodsByPath, type ContractRoute } from "./contract-routes.js";

/** A method a contract path does not serve: 405 with `Allow`. Mount after the operations. */
export function methodNotAllowed(routes: readonly ContractRoute[]): Router {
  const router = Router();
  for (const [path, methods] of allowedMethodsByPath(routes)) {
    const allow = methods.join(", ");
    router.all(path, (_req, _res, next) => {
      next(new HttpError(405, "METHOD_NOT_ALLOWED", `This path supports ${allow} only.`, { Allow: allow }));
    });
  }
  return router;
}
