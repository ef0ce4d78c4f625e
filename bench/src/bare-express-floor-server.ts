/**
 * The bare Express floor: what Express 4 itself costs for the API's work. The
 * app of express-floor-app.ts, as the production floor (express-floor-server.ts)
 * serves it: the same SQL (floor-shared.ts: the API's prepared better-sqlite3
 * statements on SQLite, the API's Prisma calls on PostgreSQL), the same bearer
 * check and hand-written parameter checks, the same JSON bodies, status codes
 * and the headers the contract requires (Link, Location, deprecation headers).
 * And nothing else: no log line, no security headers, no request id, no
 * per-key counting, no schema library. The API over this floor prices
 * everything the API adds to Express; over the production floor, what it adds
 * beyond production's duties.
 *
 * Env: PORT, API_KEYS (comma-separated), DATABASE_URL, DATABASE_POOL_SIZE (default 10).
 */
import { expressFloorApp, listenUntilTerminated } from "./express-floor-app.js";
import { floorSetup } from "./floor-shared.js";

const { port, keyIndex, store } = await floorSetup("prisma");

// An error no route answered is a fault of the bench: to stderr, which the bench keeps (server-process.ts).
const app = expressFloorApp(store, keyIndex, { unhandled: (error) => console.error(error) });
listenUntilTerminated(app, port, store);
