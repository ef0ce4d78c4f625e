/** What the bench measures: the targets wrk loads, the server processes behind them, and their order in a turn. */

/**
 * What wrk loads: the three servers, the API again with an issued key, and the API again with three
 * webhook endpoints registered for its runs (createPet only; running.ts registers them before each of
 * those runs and deletes them after).
 */
export const TARGETS = ["api", "api-issued", "express", "baseline", "api-webhooks"] as const;
export type Target = (typeof TARGETS)[number];

/** The processes: api-issued and api-webhooks are the api process. */
export type ServerKind = Exclude<Target, "api-issued" | "api-webhooks">;
export const SERVER_KINDS: readonly ServerKind[] = ["api", "express", "baseline"];
export const serverOf = (target: Target): ServerKind => (target === "api-issued" || target === "api-webhooks" ? "api" : target);

/** The scenarios api-webhooks runs: the one whose request path writes the outbox rows. */
export const servesScenario = (target: Target, scenario: string): boolean => target !== "api-webhooks" || scenario === "createPet";

/** The databases the servers run on. */
export type Provider = "sqlite" | "postgresql";

/**
 * The `chosen` targets (--targets) in the order they run in the n-th turn (warm-up or round): rotated, so no target always goes first.
 * The API and its floor are one unit that rotates with the others, back to back, taking turns at going first:
 * their ratio is paired by round, and on a shared host windows seconds apart meet different moments (the
 * plain rotation put `api-issued`'s long run between them in half the rounds; decision 020).
 * api-webhooks joins that unit on the API's other side (its ratio is to the API's createPet, paired by
 * round): `api-webhooks, api, express` in even turns, `express, api, api-webhooks` in odd ones.
 */
export function targetOrder(chosenTargets: readonly string[], n: number): Target[] {
  const chosen = TARGETS.filter((target) => chosenTargets.includes(target));
  const unit: Target[] = chosen.includes("api") ? (["api-webhooks", "api", "express"] as const).filter((t) => chosen.includes(t)) : [];
  const units: Target[][] = [
    ...(unit.length > 1 ? [n % 2 === 0 ? unit : [...unit].reverse()] : []),
    ...chosen.filter((t) => unit.length < 2 || !unit.includes(t)).map((t) => [t]),
  ];
  return units.flatMap((_, i) => units[(i + n) % units.length]!);
}

/** The server processes of the n-th turn's targets, in the order they first appear. */
export const serverOrder = (chosenTargets: readonly string[], n: number): ServerKind[] => [...new Set(targetOrder(chosenTargets, n).map(serverOf))];
