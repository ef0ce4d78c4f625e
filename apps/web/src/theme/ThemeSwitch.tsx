import { useState } from "react";
import { Button } from "../design-system/Button.js";
import { chooseTheme, storedTheme, systemTheme } from "./theme.js";

/**
 * `Dark mode`, pressed while the app is dark: a press switches to the other theme and remembers it on
 * this browser. Until then the app follows the system's setting.
 */
export function ThemeSwitch() {
  const [dark, setDark] = useState(() => (storedTheme() ?? systemTheme()) === "dark");
  return (
    <Button
      variant="quiet"
      aria-pressed={dark}
      onClick={() => {
        chooseTheme(dark ? "light" : "dark");
        setDark(!dark);
      }}
    >
      Dark mode
    </Button>
  );
}
