import type { CDPSession, Page } from "@playwright/test";
import { E2E_API_KEY, PASSKEY_API_PORT } from "../playwright.config.js";

/**
 * Chromium's virtual authenticator (CDP `WebAuthn`): a platform authenticator with resident keys and
 * user verification that always verifies and is always touched, as a laptop's fingerprint reader
 * would be. Only the page it is added to sees it.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The passkey API itself, for arranging data: 127.0.0.1 (no WebAuthn happens here, so no need of a name). */
export const PASSKEY_API_URL = `http://127.0.0.1:${PASSKEY_API_PORT}`;
export const asOperator = { Authorization: `Bearer ${E2E_API_KEY}` };

/** A suffix that makes names unique to one run. */
export const runSuffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
