import { lazy, Suspense, useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router-dom";
import { LoadingPage } from "../design-system/LoadingPage.js";
import { Button } from "../design-system/Button.js";
import { useIsPerson, useMayCall } from "../session/permissions.js";
import { useSession } from "../session/session.js";
import { useSignOut } from "../session/use-sign-out.js";
import styles from "./AppShell.module.css";
import { StatusMessageRegion } from "../design-system/status-message.js";
import { ThemeSwitch } from "../theme/ThemeSwitch.js";
import { KeyboardShortcuts } from "../keyboard/KeyboardShortcuts.js";

// Loaded after the first paint: nothing on a page waits for it, and the first load stays within budget.
const LiveUpdates = lazy(() => import("../live/LiveUpdates.js").then((module) => ({ default: module.LiveUpdates })));

/** The frame of every signed-in page: header, navigation, sign-out, and the page itself. */
export function AppShell() {
  const { signedInAs } = useSession();
  const signOut = useSignOut();
  const mayCreatePets = useMayCall("createPet");
  const mayRestorePets = useMayCall("restorePet");
  const mayManageKeys = useMayCall("listKeys");
  const mayReadActivity = useMayCall("listAuditEvents");
  const mayManageWebhooks = useMayCall("listWebhooks");
  const mayManageStaff = useMayCall("listStaff");
  const mayNameCategories = useMayCall("createCategory");
  const isPerson = useIsPerson();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const arrived = useRef(false);

  // On moving to another page, start reading and tabbing at its content, as a
  // full page load would; otherwise focus stays on a link that has gone.
  useEffect(() => {
    if (arrived.current) main.current?.focus();
    arrived.current = true;
  }, [pathname]);

  return (
    <>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <span className={styles.brand}>Petstore admin</span>
          <nav aria-label="Main" className={styles.nav}>
            <NavLink to="/" end className={styles.navLink}>
              Overview
            </NavLink>
            <NavLink to="/pets" end className={styles.navLink}>
              Pets
            </NavLink>
            {mayCreatePets && (
              <>
                <NavLink to="/pets/new" className={styles.navLink}>
                  New pet
                </NavLink>
                <NavLink to="/pets/import" className={styles.navLink}>
                  Import pets
                </NavLink>
              </>
            )}
            {mayRestorePets && (
              <NavLink to="/pets/deleted" className={styles.navLink}>
                Recently deleted
              </NavLink>
            )}
            {mayNameCategories && (
              <NavLink to="/categories" className={styles.navLink}>
                Categories
              </NavLink>
            )}
            {mayManageKeys && (
              <NavLink to="/keys" className={styles.navLink}>
                Keys
              </NavLink>
            )}
            {mayReadActivity && (
              <NavLink to="/activity" className={styles.navLink}>
                Activity
              </NavLink>
            )}
            {mayManageWebhooks && (
              <NavLink to="/webhooks" className={styles.navLink}>
                Webhooks
              </NavLink>
            )}
            {mayManageStaff && (
              <NavLink to="/staff" className={styles.navLink}>
                Staff
              </NavLink>
            )}
            {isPerson && (
              <NavLink to="/account" className={styles.navLink}>
                Account
              </NavLink>
            )}
          </nav>
          <div className={styles.account}>
            {signedInAs && (
              <p className={styles.signedInAs}>
                Signed in as {signedInAs.name} ({signedInAs.scope})
              </p>
            )}
            <KeyboardShortcuts />
            <ThemeSwitch />
            <Button variant="quiet" onClick={() => signOut()}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} className={styles.main}>
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
        <StatusMessageRegion>
          <Suspense fallback={<LoadingPage />}>
            <Outlet />
          </Suspense>
        </StatusMessageRegion>
      </main>
    </>
  );
}
