import {
  adminContract,
  AUDIT_ACTIONS,
  ERROR_CODES,
  operationsOf,
  v1Contract,
  WEBHOOK_EVENT_TYPES,
} from "@petstore/contract";
import type { Page } from "@playwright/test";

/**
 * What staff must never read on a page (issue 52, "Words for people"): an operation id of the contract,
 * an error code, an activity action's code, or a validator's own message. Gathered from the contract
 * itself, so an operation or a code added later is looked for too. Kept on purpose, for integrators:
 * webhook event types on the Webhooks pages, key prefixes, `Configured key N`.
 */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A code as a whole word: `getPet`, not the `getPet` inside `forgetPetty`; `pet.created`, not `pet.createdAt`. */
const asWord = (code: string) => new RegExp(`(?<![\\w.])${escape(code)}(?![\\w])`);

const OPERATION_IDS = [...Object.keys(operationsOf(v1Contract)), ...Object.keys(operationsOf(adminContract))];

/** zod's (3.x) own messages, which the app rewrites into sentences before showing them. */
const VALIDATOR_PHRASES: RegExp[] = [
  /Invalid enum value/,
  /Expected [\w' |]+, received/,
  /^\s*Required\s*$/m,
  /String must contain/,
  /Number must be (?:greater|less)/,
  /Invalid input/,
  /Invalid literal value/,
  /Unrecognized key\(s\)/,
];

interface Pattern {
  what: string;
  pattern: RegExp;
}

function patternsFor(path: string): Pattern[] {
  // The Webhooks pages name the event types an endpoint subscribes to: integrators need them.
  const onWebhooks = /^\/webhooks(?:[/?]|$)/.test(path);
  const actions = AUDIT_ACTIONS.filter(
    (action) => !(onWebhooks && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(action)),
  );
  return [
    ...OPERATION_IDS.map((id) => ({ what: `operation id ${id}`, pattern: asWord(id) })),
    ...ERROR_CODES.map((code) => ({ what: `error code ${code}`, pattern: asWord(code) })),
    ...actions.map((action) => ({ what: `action code ${action}`, pattern: asWord(action) })),
    ...VALIDATOR_PHRASES.map((pattern) => ({ what: `validator text ${pattern.source}`, pattern })),
  ];
}

/** What the page shows that staff should not read, each with the line it is on; empty when the page is clean. */
export async function codesOnPage(page: Page, label: string): Promise<string[]> {
  const path = new URL(page.url()).pathname;
  const text = await page.evaluate(() => document.body.innerText);
  const lines = text.split("\n");
  const found: string[] = [];
  for (const { what, pattern } of patternsFor(path)) {
    const match = pattern.exec(text);
    if (!match) continue;
    const line = lines.find((candidate) => pattern.test(candidate)) ?? match[0];
    found.push(`${label}: ${what} in "${line.trim().slice(0, 160)}"`);
  }
  return found;
}
