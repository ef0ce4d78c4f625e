import { adminContract, SIGN_IN_ERROR_PARAM, SIGN_IN_PAGE_PATH, type SignInError } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { Request, Response } from "express";
import { refuseCredential } from "../access/credential-failures.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { RateLimitFields } from "../access/rate-limit-headers.js";
import { unlimited, type LimitCount, type LimitName, type RequestLimiter } from "../access/rate-limit.js";
import { HttpError, toErrorBody } from "../base/http-error.js";
import type { StaffSessions } from "../staff/sessions.js";
import {
  CLEARED_FLOW_COOKIE,
  FLOW_COOKIE_NAME,
  IdentityProviderUnreachable,
  type SignInRefusal,
  type SignInRefusalReason,
  type SingleSignOn,
} from "./single-sign-on.js";
import { ssoIdentity } from "./sso-identity.js";
import type { RouterOf } from "../base/contract-router.js";

export interface SsoHandlerDeps {
  sessions: StaffSessions;
  issuedKeys: IssuedKeys;
  /** Config.adminOrigin: where the browser goes back to. */
  adminOrigin: string | undefined;
  /** Built when the OIDC_* settings and ADMIN_ORIGIN are set; undefined: single sign-on is off (404). */
  singleSignOn: SingleSignOn | undefined;
  /**
   * The client address's failure budget (AbuseLimits.authFailures, the one StaffSessions spends): a
   * callback spends one unit before the provider is called (a code is redeemed with the client secret),
   * so past the budget no request leaves for the provider; a sign-in that completes gives it back.
   */
  authFailures: RequestLimiter;
  /** Sign-ins started per client address (AbuseLimits.signInStarts): each /sso/start spends one. Not given: not counted. */
  signInStarts?: RequestLimiter | undefined;
  /** Called with the limit of each refusal past a budget (a metric's hook). */
  onRejected?: ((limit: LimitName) => void) | undefined;
}

/** The short code of the sign-in page's `?error=` for each refusal of the flow. */
const CODE_OF: Record<SignInRefusalReason, SignInError> = {
  "flow-missing": "expired",
  "flow-expired": "expired",
  "flow-invalid": "failed",
  "state-mismatch": "failed",
  "provider-error": "failed",
  "token-exchange-failed": "failed",
  "response-invalid": "failed",
  "provider-unreachable": "unavailable",
  "no-email": "no-email",
  "no-role": "no-role",
};

/** The code for a refusal: the person pressing cancel at the provider is told so. */
export function signInErrorOf(refusal: Pick<SignInRefusal, "reason" | "detail">): SignInError {
  if (refusal.reason === "provider-error" && /^the provider answered access_denied\b/.test(refusal.detail))
    return "cancelled";
  return CODE_OF[refusal.reason];
}

/** The flow cookie's value the request carries, else undefined (Express parses no cookies here). */
function flowCookieOf(req: Pick<Request, "headers">): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at !== -1 && part.slice(0, at).trim() === FLOW_COOKIE_NAME) return part.slice(at + 1).trim();
  }
  return undefined;
}

const notConfigured = () => ({
  status: 404 as const,
  body: toErrorBody(
    404,
    "NOT_FOUND",
    "Single sign-on is not configured on this server (the OIDC_* settings and ADMIN_ORIGIN).",
  ),
});

const server = initServer();

/**
 * The single sign-on contract (`getSignInOptions`, `ssoStart`, `ssoCallback`): single sign-on wired to the staff records and sessions.
 * The flow itself (PKCE, `state`, `nonce`, the ID token, the role claim) is `sso/`'s; here, who it signs
 * in: the person tied to the identity, else an invited person (never signed in, no passkey, no identity)
 * with the same verified email, else a new person, with the provider's role at every sign-in; a verified
 * email of anyone else here is refused (`account-exists`), and so is a disabled person.
 */
export function createSsoRouter({
  sessions,
  issuedKeys,
  adminOrigin,
  singleSignOn,
  authFailures,
  signInStarts = unlimited,
  onRejected,
}: SsoHandlerDeps): RouterOf<typeof adminContract.singleSignOn> {
  const sso = adminOrigin ? singleSignOn : undefined;
  const startFields = new RateLimitFields("sign-in-starts", signInStarts);

  const redirect = (res: Response, location: string) => {
    res.setHeader("Location", location);
    res.setHeader("Cache-Control", "no-store");
    return { status: 302 as const, body: undefined };
  };
  const toSignInPage = (res: Response, code: SignInError) =>
    redirect(res, `${adminOrigin}${SIGN_IN_PAGE_PATH}?${new URLSearchParams({ [SIGN_IN_ERROR_PARAM]: code })}`);

  /**
   * A refused callback: a failure of the address's budget (`counted`: the unit the callback spent already,
   * else one is spent now; past the budget, the page says so), then to the sign-in page.
   */
  const refuse = async (
    req: Request,
    res: Response,
    code: SignInError,
    why: { reason: string; detail: string },
    counted?: LimitCount,
  ) => {
    const spent = await refuseCredential({
      authFailures,
      clientAddress: req.ip ?? "unknown",
      onRejected,
      unauthorized: () => new HttpError(401, "UNAUTHORIZED", "Single sign-on refused."),
      tooManyReason: "Too many failed sign-in attempts from this address",
      counted,
    });
    // The budget's RateLimit fields (and Retry-After past it) ride on the redirect, as on a 401 or 429.
    for (const [name, value] of Object.entries(spent.headers)) res.setHeader(name, value);
    const overBudget = spent.status === 429;
    req.log.info({ sso: { reason: why.reason, detail: why.detail, overBudget } }, "single sign-on refused");
    return toSignInPage(res, overBudget ? "too-many" : code);
  };

  return server.router(adminContract.singleSignOn, {
    getSignInOptions: async () => ({
      status: 200,
      body: { passkeys: adminOrigin !== undefined, singleSignOn: sso ? { displayName: sso.displayName } : null },
    }),

    ssoStart: async ({ req, res }) => {
      if (!sso) return notConfigured();
      // Counted per address before anything else: each start seals a new flow, whose callback would cost a call
      // to the provider (and, while it is down, each start retries its discovery). Past the budget the person
      // is sent to the sign-in page, which says so: /sso/start is a page the browser navigates to, not a fetch.
      if (signInStarts !== unlimited) {
        const count = await signInStarts.count(req.ip ?? "unknown");
        startFields.set(res, count);
        if (!count.allowed) {
          onRejected?.("sign_in_starts");
          res.setHeader("Retry-After", String(count.resetSeconds));
          req.log.info({ sso: { reason: "too-many-starts" } }, "single sign-on start refused");
          return toSignInPage(res, "too-many");
        }
      }
      let started;
      try {
        started = await sso.startSignIn();
      } catch (error) {
        if (!(error instanceof IdentityProviderUnreachable)) throw error;
        req.log.warn({ err: error }, "single sign-on: the identity provider could not be reached");
        return toSignInPage(res, "unavailable");
      }
      res.append("Set-Cookie", started.flowCookie.setCookie);
      return redirect(res, started.authorizationUrl.href);
    },

    ssoCallback: async ({ req, res }) => {
      if (!sso) return notConfigured();
      // Used once, whatever the outcome.
      res.append("Set-Cookie", CLEARED_FLOW_COOKIE);
      // One unit of the address's failure budget, spent before the provider's token endpoint is called (with
      // the client secret): past the budget nothing leaves for the provider, however many callbacks arrive at
      // once. Given back below when the sign-in completes: only refusals spend the budget.
      const address = req.ip ?? "unknown";
      const counted = await authFailures.count(address);
      if (!counted.allowed) {
        return refuse(
          req,
          res,
          "too-many",
          { reason: "over-budget", detail: "the address's failure budget is spent: the provider was not called" },
          counted,
        );
      }
      const result = await sso.finishSignIn(req.originalUrl, flowCookieOf(req));
      if (!result.ok) return refuse(req, res, signInErrorOf(result.refusal), result.refusal, counted);

      const outcome = await sessions.repository.findOrCreateForSso(
        ssoIdentity(result.signIn),
        new Date(sessions.now()),
        {
          requestId: req.id || null,
          clientAddress: req.ip ?? null,
        },
      );
      // The verified email is a person's who has signed in here before: not joined, refused.
      if ("refused" in outcome)
        return refuse(
          req,
          res,
          outcome.refused,
          { reason: outcome.refused, detail: `staff member ${outcome.staffId} has this email` },
          counted,
        );
      const { staff, how, roleChanged } = outcome;
      if (staff.disabledAt !== null)
        return refuse(
          req,
          res,
          "disabled",
          { reason: "disabled", detail: `staff member ${staff.id} is disabled` },
          counted,
        );
      // Their other sessions ended with the role change: their tokens go too, here at once, elsewhere within 2 s.
      if (roleChanged) issuedKeys.endedSessions({ staffId: staff.id });
      await sessions.startStaffSession(req, res, staff, "sso");
      await authFailures.refund(address);
      req.log.info({ sso: { staffId: staff.id, how, role: staff.role, roleChanged } }, "single sign-on: signed in");
      return redirect(res, `${adminOrigin}/`);
    },
  });
}
