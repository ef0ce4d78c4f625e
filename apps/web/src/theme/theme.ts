/** The admin app's color theme: the system's setting, unless staff chose one with the header's switch. */
export type Theme = "light" | "dark";

const STORAGE_KEY = "petstore-theme";

/** The theme chosen with the switch on this browser, remembered; null: follow the system. */
export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

/** The system's setting (light where the browser cannot say). */
export function systemTheme(): Theme {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Shows `theme` (or the system's, for null): `data-theme` on <html>, which global.css's color-scheme follows. */
export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset["theme"] = theme;
  else delete document.documentElement.dataset["theme"];
}

/** Chooses `theme` for this browser from now on, and shows it. */
export function chooseTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Storage refused (a private window's quota): shown for this page all the same.
  }
  applyTheme(theme);
}
