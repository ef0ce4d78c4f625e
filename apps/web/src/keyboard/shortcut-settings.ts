import { rememberedSetting } from "../design-system/remembered-setting.js";

const remembered = rememberedSetting("petstore-shortcuts");

/** Whether the single-key shortcuts are on (the default); staff may turn them off (WCAG 2.1.4), remembered here. */
export const shortcutsOn = (): boolean => remembered.read() !== "off";

export const setShortcutsOn = (on: boolean): void => remembered.write(on ? null : "off");

/** A key pressed while typing is the text's: a field, a select, an editable region. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** The single-key shortcuts and what they do, as the dialog lists them. */
export const SHORTCUTS = [
  { key: "/", does: "Search pets by name" },
  { key: "n", does: "New pet" },
  { key: "?", does: "Show these shortcuts" },
] as const;
