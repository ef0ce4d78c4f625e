import { test as base, type APIRequestContext } from "@playwright/test";
import { API_URL, E2E_API_KEY } from "../playwright.config.js";

/** `api` sends the e2e key; the built-in `request` sends none. */
export const test = base.extend<{ api: APIRequestContext }>({
  api: async ({ playwright }, use) => {
    const api = await playwright.request.newContext({
      baseURL: API_URL,
      extraHTTPHeaders: { Authorization: `Bearer ${E2E_API_KEY}` },
    });
    await use(api);
    await api.dispose();
  },
});
export { expect } from "@playwright/test";
