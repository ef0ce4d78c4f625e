/**
 * The key lives in sessionStorage: it is kept for this tab only and is gone
 * when the tab closes (docs/interface.md, "Admin app").
 */
const STORAGE_KEY = "petstore.apiKey";

export function readStoredApiKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function storeApiKey(apiKey: string): void {
  sessionStorage.setItem(STORAGE_KEY, apiKey);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
