/** What the bench measures: the targets wrk loads, the server processes behind them, and their order in a turn. */

/** What wrk loads: the three servers, and the API again with an issued key. */
export const TARGETS = ["api", "api-issued", "express", "baseline"] as const;
export type Target = (typeof TARGETS)[number];

/** The processes: api-issued is the api process. */
export type ServerKind = Exclude<Target, "api-issued">;
export const SERVER_KINDS: readonly ServerKind[] = ["api", "express", "baseline"];
export const serverOf = (target: Target): ServerKind => (target === "api-issued" ? "api" : target);

/** The databases the servers run on. */
export type Provider = "sqlite" | "postgresql";

/**
 * The `chosen` targets (--targets) in the order they run in the n-th turn (warm-up or round): rotated, so no target always goes first.
 * The API and its floor are one unit that rotates with the others, back to back, taking turns at going first:
 * their ratio is paired by round, and on a shared host windows seconds apart meet different moments (the
 * plain rotation put `api-issued`'s long run between them in half the rounds; decision 020).
 */
export function targetOrder(chosenTargets: readonly string[], n: number): Target[] {
  const chosen = TARGETS.filter((target) => chosenTargets.includes(target));
  const paired = chosen.includes("api") && chosen.includes("express");
  const units: Target[][] = paired
    ? [n % 2 === 0 ? ["api", "express"] : ["express", "api"], ...chosen.filter((t) => t !== "api" && t !== "express").map((t) => [t])]
    : chosen.map((t) => [t]);
  return units.flatMap((_, i) => units[(i + n) % units.length]!);
}

/** The server processes of the n-th turn's targets, in the order they first appear. */
export const serverOrder = (chosenTargets: readonly string[], n: number): ServerKind[] => [...new Set(targetOrder(chosenTargets, n).map(serverOf))];
