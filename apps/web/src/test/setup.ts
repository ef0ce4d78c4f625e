import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// findBy* waits 1 s by default; on a 2-core CI machine running the other suites beside this one a
// page's first render can take longer. Waiting longer only costs time when something is wrong.
configure({ asyncUtilTimeout: 4_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
