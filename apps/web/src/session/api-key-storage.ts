import { Session } from "@petstore/contract";

/**
 * The key lives in sessionStorage: it is kept for this tab only and is gone
 * when the tab closes (docs/interface.md, "Admin app"). Beside it, who the key
 * is (getSession's answer), so a reload needs no request to draw the header:
 * a key's name, scope and expiry never change, and the API checks the scope
 * of every request whatever the page believes.
 */
const API_KEY_STORAGE_KEY = "petstore.apiKey";
const SESSION_STORAGE_KEY = "petstore.session";

export function readStoredApiKey(): string | null {
  return sessionStorage.getItem(API_KEY_STORAGE_KEY);
}

/** Who the stored key is; null when nobody signed in, or what is stored is not a session. */
export function readStoredSession(): Session | null {
  const stored = sessionStorage.getItem(SESSION_STORAGE_KEY);
  if (stored === null) return null;
  try {
    const parsed = Session.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function storeApiKey(apiKey: string, session: Session): void {
  sessionStorage.setItem(API_KEY_STORAGE_KEY, apiKey);
  sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(API_KEY_STORAGE_KEY);
  sessionStorage.removeItem(SESSION_STORAGE_KEY);
}
