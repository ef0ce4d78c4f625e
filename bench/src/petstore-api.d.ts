// @petstore/api emits no declarations (it is an application); the two modules the bench loads.
declare module "@petstore/api/dist/database.js" {
  /** The pragmas the API sets on every SQLite connection. */
  export const SQLITE_PRAGMAS: string | undefined;
}
