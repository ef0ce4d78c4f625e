import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation, useNavigate } from "react-router-dom";
import { Button } from "../design-system/Button.js";
import { useSession } from "../session/session.js";
import styles from "./AppShell.module.css";
import { StatusMessageRegion } from "./status-message.js";

/** The frame of every signed-in page: header, navigation, sign-out, and the page itself. */
export function AppShell() {
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const arrived = useRef(false);

  // On moving to another page, start reading and tabbing at its content, as a
  // full page load would; otherwise focus stays on a link that has gone.
  useEffect(() => {
    if (arrived.current) main.current?.focus();
    arrived.current = true;
  }, [pathname]);

  const handleSignOut = () => {
    signOut();
    // Pets fetched with this key must not be shown to whoever signs in next.
    queryClient.clear();
    navigate("/sign-in", { replace: true });
  };

  return (
    <>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <span className={styles.brand}>Petstore admin</span>
          <nav aria-label="Main" className={styles.nav}>
            <NavLink to="/pets" end className={styles.navLink}>
              Pets
            </NavLink>
            <NavLink to="/pets/new" className={styles.navLink}>
              New pet
            </NavLink>
            <NavLink to="/pets/import" className={styles.navLink}>
              Import pets
            </NavLink>
          </nav>
          <Button variant="quiet" className={styles.signOut} onClick={handleSignOut}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} className={styles.main}>
        <StatusMessageRegion>
          <Outlet />
        </StatusMessageRegion>
      </main>
    </>
  );
}
