import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Button } from "../design-system/Button.js";
import { useMayCall } from "../session/permissions.js";
import { isTyping, setShortcutsOn, shortcutsOn } from "./shortcut-settings.js";

// Loaded when first opened: no page needs it to render.
const ShortcutsDialog = lazy(() => import("./ShortcutsDialog.js"));

/** The pets list's search field, when the page shows it. */
const searchField = () => document.querySelector<HTMLInputElement>('[role="search"] input');

/**
 * The single-key shortcuts of every signed-in page: `/` searches pets, `n` opens New pet, `?` lists them.
 * None fires while typing in a field or with a modifier held; all can be turned off in the list
 * (`Keyboard shortcuts`, also a button in the header, so they can be turned on again).
 */
export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const mayCreatePets = useMayCall("createPet");
  const [open, setOpen] = useState(false);
  const [enabled, setEnabled] = useState(shortcutsOn);
  const focusSearchOnArrival = useRef(false);

  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      if (event.key === "/") {
        event.preventDefault();
        const field = searchField();
        if (field) field.focus();
        else {
          focusSearchOnArrival.current = true;
          navigate("/pets");
        }
      } else if (event.key === "n" && mayCreatePets) {
        event.preventDefault();
        navigate("/pets/new");
      } else if (event.key === "?") {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [enabled, mayCreatePets, navigate]);

  // `/` from another page: the list's search once the list is there (after the shell's own focus move).
  useEffect(() => {
    if (!focusSearchOnArrival.current || pathname !== "/pets") return;
    focusSearchOnArrival.current = false;
    const timer = setTimeout(() => searchField()?.focus(), 0);
    return () => clearTimeout(timer);
  }, [pathname]);

  return (
    <>
      <Button variant="quiet" onClick={() => setOpen(true)}>
        Keyboard shortcuts
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ShortcutsDialog
            enabled={enabled}
            onEnabledChange={(on) => {
              setShortcutsOn(on);
              setEnabled(on);
            }}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
