/**
 * The API's origin (no `/v1`: the contract's path prefix adds it), read at build time: `VITE_API_URL`
 * when set, else the page's own origin ("" makes every request same-origin). In production the API
 * serves this build; under `vite dev` the dev server proxies `/v1` and `/admin` to the development API
 * (vite.config.ts), so the session cookie stays first-party.
 */
export const API_ORIGIN = (import.meta.env.VITE_API_URL || "").replace(/\/+$/, "");

export function bearer(secret: string): string {
  return `Bearer ${secret}`;
}
