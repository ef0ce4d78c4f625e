import type { AppRouter } from "@ts-rest/core";
import type { createExpressEndpoints } from "@ts-rest/express";

/**
 * A contract's handlers as ts-rest types them (`initServer().router(contract, { ... })`): what each
 * feature's router returns, named so that its declaration can say so.
 */
export type RouterOf<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];
