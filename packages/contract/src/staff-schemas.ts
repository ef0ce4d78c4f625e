import { z } from "zod";
import { DATE_TIME_MAX_LENGTH, Scope } from "./access-schemas.js";
import { decimalInteger, NAME_MAX_LENGTH, NAME_PATTERN, NameText, positiveSafeInteger } from "./schemas.js";

const dateTime = z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true });

/** The name of the session cookie: `__Host-` binds it to the API's own origin (Secure, Path=/, no Domain). */
export const SESSION_COOKIE_NAME = "__Host-petstore-session";
/**
 * A cookie set and cleared with the session cookie, which the admin app's script may read (not HttpOnly):
 * it says only that this browser signed in, so a page load without it shows sign-in at once instead of
 * asking for a token the API would refuse (a 401 in the console, a page that changes shape). Never a
 * credential: the session cookie alone is.
 */
export const SIGNED_IN_COOKIE_NAME = "petstore-signed-in";
/** A session token's secret starts with this (as an issued key's with `psk_`), so a leaked one is recognisable. */
export const SESSION_TOKEN_PREFIX = "pst_";
/** `pst_` and 43 base64url characters: 32 random bytes. */
export const SESSION_TOKEN_SECRET = /^pst_[A-Za-z0-9_-]{43}$/;
/** How long a session token is valid: the admin app asks for the next one before this runs out. */
export const SESSION_TOKEN_TTL_SECONDS = 600;
/** An invitation link's token (in the URL's fragment): 43 base64url characters, 32 random bytes. */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** How long an invitation link is valid. */
export const INVITATION_TTL_HOURS = 24;
/** listStaff answers at most this many people, the newest. */
export const LIST_STAFF_MAX = 1000;
/** The longest email address (RFC 5321: 254 characters in a path). */
export const EMAIL_MAX_LENGTH = 254;

/** A person's role: the key scopes (`read`, `write`, `admin`), with the same meaning. */
export const StaffRole = Scope;
export type StaffRole = z.infer<typeof StaffRole>;

export const StaffId = positiveSafeInteger("staffId");

/** An email address as given: trimmed, compared and stored lower-case. */
export const StaffEmail = z
  .string({ required_error: "email is required", invalid_type_error: "email must be a string" })
  .trim()
  .min(3, "email must be an email address")
  .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .email("email must be an email address, e.g. sam@example.com")
  .transform((value) => value.toLowerCase())
  .describe("The person's email address; unique, compared lower-case.");

/** A person's name: the rule of every stored name (`NameText`). */
export const StaffName = NameText.describe("The person's name, shown in the header and the activity log.");

/** A staff member: a person who signs in as themselves. */
export const StaffMember = z
  .object({
    id: StaffId,
    email: z.string().max(EMAIL_MAX_LENGTH).email(),
    name: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN),
    role: StaffRole,
    createdAt: dateTime,
    /** Who invited them (a key's or person's name); null for the operator command or a first single sign-on. */
    createdBy: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN).nullable(),
    lastSignInAt: dateTime.nullable(),
    disabledAt: dateTime.nullable(),
  })
  .describe("A staff member: a person who signs in as themselves.");
export type StaffMember = z.infer<typeof StaffMember>;
export const StaffMembers = z
  .array(StaffMember)
  .max(LIST_STAFF_MAX)
  .describe(`Staff members, newest first (at most ${LIST_STAFF_MAX}).`);

/** Request body of inviteStaff. Unknown fields are stripped. */
export const NewStaffMember = z
  .object({ email: StaffEmail, name: StaffName, role: StaffRole })
  .strip()
  .describe("Request body of inviteStaff: the person's email, name and role.");
export type NewStaffMember = z.infer<typeof NewStaffMember>;

/** The answer to inviteStaff: the person, and their one-time invitation link, shown this once. */
export const InvitedStaffMember = z
  .object({
    staff: StaffMember,
    invitationUrl: z
      .string()
      .max(2048)
      .url()
      .describe("`<ADMIN_ORIGIN>/invite#<token>`: shown this once; only the token's SHA-256 is stored."),
    expiresAt: dateTime,
  })
  .describe("The invited person and their one-time invitation link, shown this once.");
export type InvitedStaffMember = z.infer<typeof InvitedStaffMember>;

export const StaffIdParams = z.object({ staffId: decimalInteger("staffId", positiveSafeInteger("staffId")) });
export const SessionIdParams = z.object({ sessionId: decimalInteger("sessionId", positiveSafeInteger("sessionId")) });
export const PasskeyIdParams = z.object({ passkeyId: decimalInteger("passkeyId", positiveSafeInteger("passkeyId")) });

/** Request body of changeStaffRole. */
export const StaffRoleChange = z
  .object({ role: StaffRole })
  .strip()
  .describe("Request body of changeStaffRole: the new role.");
export type StaffRoleChange = z.infer<typeof StaffRoleChange>;

/** disableStaff's optional body: `revokeKeys` also revokes the active keys the person created, in the same transaction. */
export const DisableStaffBody = z
  .object({
    revokeKeys: z.boolean({ invalid_type_error: "revokeKeys must be true or false" }).optional(),
  })
  .strip()
  .optional()
  .describe(
    "Optional: `revokeKeys` (default false) also revokes every active key the person created, each with a `key.revoked` event.",
  );
export type DisableStaffBody = z.infer<typeof DisableStaffBody>;

/** A person's passkey as listed: never its public key or credential id. */
export const Passkey = z
  .object({
    id: positiveSafeInteger("id"),
    name: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN),
    createdAt: dateTime,
    lastUsedAt: dateTime.nullable(),
  })
  .describe("One of the person's passkeys.");
export type Passkey = z.infer<typeof Passkey>;

/** Request body of renamePasskey. */
export const PasskeyChanges = z
  .object({ name: NameText.describe("The passkey's new name.") })
  .strip()
  .describe("Request body of renamePasskey: its new name.");

/** One of a person's browser sessions. */
export const StaffSessionSummary = z
  .object({
    id: positiveSafeInteger("id"),
    /** A short label of the browser it was started in (from its User-Agent), or null. */
    browser: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN).nullable(),
    signedInAt: dateTime,
    lastActiveAt: dateTime,
    expiresAt: dateTime,
    /** True for the session this request's token was bought with. */
    current: z.boolean(),
  })
  .describe("A browser session: where and when it was started, when it was last active.");
export type StaffSessionSummary = z.infer<typeof StaffSessionSummary>;

/** getAccount: the person, their passkeys and their sessions that have not ended. */
export const Account = z
  .object({
    staff: StaffMember,
    passkeys: z.array(Passkey).max(100),
    sessions: z.array(StaffSessionSummary).max(1000),
  })
  .describe("The signed-in person, their passkeys and their open sessions.");
export type Account = z.infer<typeof Account>;

/** The answer to createSessionToken: a bearer token for `/v1` and `/admin/v1`, valid 10 minutes. */
export const SessionToken = z
  .object({
    token: z
      .string()
      .length(SESSION_TOKEN_PREFIX.length + 43)
      .regex(SESSION_TOKEN_SECRET)
      .describe("Send it as `Authorization: Bearer <token>`; keep it in memory only."),
    expiresAt: dateTime,
  })
  .describe("A short-lived bearer token bought with the session cookie.");
export type SessionToken = z.infer<typeof SessionToken>;

/** An invitation token, as the invitation page reads it from its URL's fragment. */
export const InvitationToken = z
  .string({ required_error: "token is required", invalid_type_error: "token must be a string" })
  .max(43, "token must be the 43 characters after # in the invitation link")
  .regex(INVITATION_TOKEN, "token must be the 43 characters after # in the invitation link");

/** Request body of getInvitation (the token is never put in a URL). */
export const InvitationLookup = z
  .object({ token: InvitationToken })
  .strip()
  .describe("Request body of getInvitation: the invitation link's token.");

/** What the invitation page shows: who is invited, until when. */
export const Invitation = z
  .object({
    name: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN),
    email: z.string().max(EMAIL_MAX_LENGTH).email(),
    role: StaffRole,
    expiresAt: dateTime,
  })
  .describe("A valid invitation: the invited person's name, email and role, and when the link expires.");
export type Invitation = z.infer<typeof Invitation>;

/**
 * A WebAuthn options or response object in its JSON form (as `@simplewebauthn/server` makes and
 * `@simplewebauthn/browser` returns them); checked by the handler with `@simplewebauthn/server`.
 */
const WebAuthnJson = z.object({}).passthrough();

/** Request body of the invitation's passkey registration options: the invitation token. */
export const InvitationRegistrationOptionsRequest = z.object({ invitationToken: InvitationToken }).strip();
/** Request body of the invitation's passkey registration: the token, the authenticator's answer and a name. */
export const InvitationRegistration = z
  .object({ invitationToken: InvitationToken, response: WebAuthnJson, name: NameText.optional() })
  .strip();
/** Request body of a signed-in person's passkey registration. */
export const PasskeyRegistration = z.object({ response: WebAuthnJson, name: NameText.optional() }).strip();
/** PublicKeyCredentialCreationOptionsJSON. */
export const PasskeyRegistrationOptions = WebAuthnJson.describe(
  "WebAuthn PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create().",
);
/** PublicKeyCredentialRequestOptionsJSON. */
export const PasskeyAuthenticationOptions = WebAuthnJson.describe(
  "WebAuthn PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get().",
);
/** Request body of passkey sign-in: the authenticator's answer. */
export const PasskeyAuthentication = z.object({ response: WebAuthnJson }).strip();

/** The single sign-on callback's query (`code`, `state`, or an `error` from the provider). */
/** OAuth's own alphabets (RFC 6749 appendix A): visible ASCII, and printable ASCII for descriptions. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
/**
 * Printable ASCII and line breaks: Entra ID ends its descriptions with "\r\nTrace ID: ...\r\nCorrelation
 * ID: ...", and a person who cancelled there must reach the sign-in page, not a 400. Never shown to anyone.
 */
const DESCRIPTION_TEXT = /^[\t\n\r\x20-\x7e]*$/;

export const SsoCallbackQuery = z
  .object({
    code: z.string().max(2048).regex(VISIBLE_ASCII).optional(),
    state: z.string().max(512).regex(VISIBLE_ASCII).optional(),
    error: z.string().max(256).regex(VISIBLE_ASCII).optional(),
    error_description: z.string().max(1024).regex(DESCRIPTION_TEXT).optional(),
  })
  .strip();

/** What the sign-in page offers besides the API key (which is always there): `getSignInOptions`, no credential. */
export const SignInOptions = z
  .object({
    passkeys: z
      .boolean()
      .describe(
        "Whether `Sign in with a passkey` is offered: the server knows the admin app's origin (ADMIN_ORIGIN), the passkeys' relying party.",
      ),
    singleSignOn: z
      .object({
        displayName: z
          .string()
          .max(60)
          .regex(NAME_PATTERN)
          .describe("OIDC_DISPLAY_NAME: the button reads `Sign in with <displayName>`."),
      })
      .nullable()
      .describe(
        "Single sign-on, when an identity provider is configured (and ADMIN_ORIGIN is known); null: not offered.",
      ),
  })
  .describe("The ways to sign in this server offers besides an API key.");
export type SignInOptions = z.infer<typeof SignInOptions>;

/**
 * Where a refused single sign-on sends the browser: `<ADMIN_ORIGIN>/sign-in?error=<code>`. The page
 * shows the sentence of the code (`signInErrorMessage`), never text from the URL: a link anyone can
 * craft must not put their words on the sign-in page.
 */
export const SIGN_IN_PAGE_PATH = "/sign-in";
export const SIGN_IN_ERROR_PARAM = "error";

/** The single sign-on refusals, by the short code the API puts in `?error=`, and what the sign-in page says. */
export const SIGN_IN_ERRORS = {
  /** No value of the role claim is in OIDC_ROLE_MAP. */
  "no-role": "Your account has no role in this store.",
  /**
   * The verified email belongs to a person who has signed in here before, by another way: single sign-on
   * does not join them (it would hand their account to whoever controls that email at the provider).
   */
  "account-exists": "An account with this email already exists. Sign in with your passkey.",
  /** The person is disabled here. */
  disabled: "Your account is disabled. Ask an admin of this store.",
  /** The identity provider gave no email address. */
  "no-email": "Your account at the identity provider has no email address.",
  /** The person pressed cancel at the identity provider (`access_denied`). */
  cancelled: "Sign-in was cancelled at the identity provider.",
  /** The sign-in's own cookie is missing (another browser, or cookies blocked) or older than 10 minutes. */
  expired: "The sign-in took too long or was not started in this browser. Please try again.",
  /** The identity provider could not be reached. */
  unavailable: "The identity provider could not be reached. Please try again later.",
  /** The client address spent its failure budget (AUTH_FAILURES_PER_MIN). */
  "too-many": "Too many failed sign-in attempts from this address. Please wait a minute and try again.",
  /** Anything else: a wrong `state`, a refused code, an ID token that does not verify. */
  failed: "Single sign-on did not complete. Please try again.",
} as const satisfies Record<string, string>;
export type SignInError = keyof typeof SIGN_IN_ERRORS;
export const SIGN_IN_ERROR_CODES = Object.keys(SIGN_IN_ERRORS) as SignInError[];

/** The sentence for `?error=`: a known code's, `failed`'s for any other value, null when there is none. */
export function signInErrorMessage(code: string | null | undefined): string | null {
  if (code === null || code === undefined || code === "") return null;
  return Object.prototype.hasOwnProperty.call(SIGN_IN_ERRORS, code)
    ? SIGN_IN_ERRORS[code as SignInError]
    : SIGN_IN_ERRORS.failed;
}
