/** A count as the page writes it: `1,204`. */
export function formatCount(count: number): string {
  return count.toLocaleString("en");
}

/** `1 pet`, `1,204 pets`. */
export function petsCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "pet" : "pets"}`;
}
