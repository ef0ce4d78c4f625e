/** What the bench measures: the targets wrk loads, the server processes behind them, and their order in a turn. */

/**
 * What wrk loads: the API, its two Express floors and the node:http baseline, the API again with an
 * issued key, again with a `pst_` session token (started with that issued key; its runs alternate the
 * two), and again with three webhook endpoints registered for its runs (createPet only;
 * running.ts registers them before each of those runs and deletes them after).
 * `production` is the production floor (express-floor-server.ts: Express with production's duties, the
 * target `express` until two floors ran side by side; options.ts still reads `express` as its name);
 * `bare` the bare Express floor (bare-express-floor-server.ts: the same work and nothing else).
 */
export const TARGETS = ["api", "api-issued", "api-token", "production", "bare", "baseline", "api-webhooks"] as const;
export type Target = (typeof TARGETS)[number];

/** The targets that load the api process under another key, or with endpoints registered. */
export const API_VARIANTS = ["api-issued", "api-token", "api-webhooks"] as const;
type ApiVariant = (typeof API_VARIANTS)[number];
const isApiVariant = (target: Target): target is ApiVariant => (API_VARIANTS as readonly Target[]).includes(target);

/**
 * The key-sliced targets: each run alternates the key it is named for with a reference key slice by slice
 * (load.ts): api-issued an issued key with the configured one, api-token a session token with the issued
 * key it was started with. Their runs are --issued-length times as long (each key has half of one).
 */
export const isKeySliced = (target: Target): boolean => target === "api-issued" || target === "api-token";

/**
 * The processes. The key-sliced targets run on an API process of their own (`api-keyed`), so the `api`
 * process meets the load its floors meet, scenario for scenario: when they shared it, it served three
 * targets' runs (two of them 6× as long) to each floor's one, and came to its own runs warmer than
 * they did. api-webhooks stays on the `api` process: its ratio to `api` must differ by the outbox
 * rows alone, not by two processes.
 */
export type ServerKind = Exclude<Target, ApiVariant> | "api-keyed";
/** In the order the report's tables read them (the API, its floors, the baseline), then the second API process. */
export const SERVER_KINDS: readonly ServerKind[] = ["api", "production", "bare", "baseline", "api-keyed"];
export const serverOf = (target: Target): ServerKind =>
  isKeySliced(target) ? "api-keyed" : isApiVariant(target) ? "api" : target;
/** Whether a process runs the API (rather than a floor or the baseline). */
export const isApiServer = (kind: ServerKind): kind is "api" | "api-keyed" => kind === "api" || kind === "api-keyed";

/** The scenarios api-webhooks runs: the one whose request path writes the outbox rows. */
export const servesScenario = (target: Target, scenario: string): boolean =>
  target !== "api-webhooks" || scenario === "createPet";

/** The databases the servers run on. */
export type Provider = "sqlite" | "postgresql";

/**
 * The targets run back to back with the API, each paired with it by round: the two floors first (their
 * ratios are the goals on every scenario), then api-webhooks (createPet only).
 */
const API_PARTNERS = ["production", "bare", "api-webhooks"] as const;

/**
 * The API's unit in an even turn: the API between its first two partners, a third outside the first.
 * So each floor is always beside the API; api-webhooks is too, unless both floors run, when it is one
 * run away (`api-webhooks, production, api, bare`).
 */
function apiUnit(chosen: readonly Target[]): Target[] {
  const [first, second, third] = API_PARTNERS.filter((t) => chosen.includes(t));
  const unit: (Target | undefined)[] = [third, first, "api", second];
  return unit.filter((t): t is Target => t !== undefined);
}

/**
 * The `chosen` targets (--targets) in the order they run in the n-th turn (warm-up or round): rotated, so no target always goes first.
 * The API and its partners are one unit that rotates with the others, back to back, the unit reversed in
 * odd turns so each side takes turns at going first: their ratios are paired by round, and on a shared
 * host windows seconds apart meet different moments (the plain rotation put `api-issued`'s long run
 * between them in half the rounds; decision 020).
 */
export function targetOrder(chosenTargets: readonly string[], n: number): Target[] {
  const chosen = TARGETS.filter((target) => chosenTargets.includes(target));
  const unit = chosen.includes("api") ? apiUnit(chosen) : [];
  const units: Target[][] = [
    ...(unit.length > 1 ? [n % 2 === 0 ? unit : [...unit].reverse()] : []),
    ...chosen.filter((t) => unit.length < 2 || !unit.includes(t)).map((t) => [t]),
  ];
  return units.flatMap((_, i) => units[(i + n) % units.length]!);
}

/** The server processes of the n-th turn's targets, in the order they first appear. */
export const serverOrder = (chosenTargets: readonly string[], n: number): ServerKind[] => [
  ...new Set(targetOrder(chosenTargets, n).map(serverOf)),
];
