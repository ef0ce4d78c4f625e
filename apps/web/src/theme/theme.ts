import { rememberedSetting } from "../design-system/remembered-setting.js";

/** The admin app's color theme: the system's setting, unless staff chose one with the header's switch. */
export type Theme = "light" | "dark";

const remembered = rememberedSetting("petstore-theme");

/** The theme chosen with the switch on this browser, remembered; null: follow the system. */
export function storedTheme(): Theme | null {
  const value = remembered.read();
  return value === "light" || value === "dark" ? value : null;
}

/** The system's setting (light where the browser cannot say). */
export function systemTheme(): Theme {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

/** Shows `theme` (or the system's, for null): `data-theme` on <html>, which global.css's color-scheme follows. */
export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset["theme"] = theme;
  else delete document.documentElement.dataset["theme"];
}

/** Chooses `theme` for this browser from now on, and shows it. */
export function chooseTheme(theme: Theme): void {
  remembered.write(theme);
  applyTheme(theme);
}
