/**
 * A choice remembered on this browser (localStorage), such as the theme or the shortcuts' switch: read
 * and written so that storage refused (a private window's quota, a policy) costs nothing but the memory.
 */
export function rememberedSetting(key: string): { read(): string | null; write(value: string | null): void } {
  return {
    read() {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    write(value) {
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch {
        // Refused: the choice holds for this page.
      }
    },
  };
}
