import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppProviders, AppRoutes, ROUTER_FUTURE } from "./App.js";
import "./design-system/global.css";
import { applyTheme, storedTheme } from "./theme/theme.js";

// Before the first render: a theme chosen with the header's switch shows from the first paint of the app.
applyTheme(storedTheme());

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter future={ROUTER_FUTURE}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
