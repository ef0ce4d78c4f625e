import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void
  ? I
  : never;
type Leaves<T> = {
  [K in keyof T]: T[K] extends AppRoute ? { [P in K]: T[K] } : T[K] extends AppRouter ? Leaves<T[K]> : never;
}[keyof T];

/** Every route of a (nested) contract, by operation name: the names are the routes' own keys. */
export type Operations<T> = { [K in keyof UnionToIntersection<Leaves<T>>]: UnionToIntersection<Leaves<T>>[K] };

/**
 * Every route of a contract whose features are nested contracts, by operation name (the route's key),
 * in the contract's order: what the server, the documents and the scope table walk. Throws on a name used
 * twice, which the documents' operationIds and the server's dispatch could not tell apart.
 */
export function operationsOf<T extends AppRouter>(contract: T): Operations<T> {
  const operations: Record<string, AppRoute> = {};
  const walk = (router: AppRouter) => {
    for (const [name, entry] of Object.entries(router)) {
      if (!isAppRoute(entry)) {
        walk(entry);
        continue;
      }
      if (name in operations) throw new Error(`operation ${name} is in two places of the contract`);
      operations[name] = entry;
    }
  };
  walk(contract);
  return operations as Operations<T>;
}
