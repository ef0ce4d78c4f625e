import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { SIGNED_IN_COOKIE_NAME } from "@petstore/contract";
import { afterEach, beforeEach } from "vitest";

// findBy* waits 1 s by default; on a 2-core CI machine running the other suites beside this one a
// page's first render can take longer. Waiting longer only costs time when something is wrong.
configure({ asyncUtilTimeout: 4_000 });

// As after a sign-in (the API sets it beside the session cookie): the app asks the (fake) API whether
// there is a session. Tests of a browser that never signed in remove it.
beforeEach(() => {
  document.cookie = `${SIGNED_IN_COOKIE_NAME}=1; Path=/`;
});

afterEach(() => {
  cleanup();
  document.cookie = `${SIGNED_IN_COOKIE_NAME}=; Path=/; Max-Age=0`;
  sessionStorage.clear();
  localStorage.clear();
});
