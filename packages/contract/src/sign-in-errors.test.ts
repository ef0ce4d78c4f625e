import { describe, expect, it } from "vitest";
import { SIGN_IN_ERROR_CODES, SIGN_IN_ERRORS, SignInOptions, signInErrorMessage } from "./staff-schemas.js";

describe("single sign-on refusals on the sign-in page", () => {
  it("gives each short code its sentence; no-role is the design's", () => {
    expect(signInErrorMessage("no-role")).toBe("Your account has no role in this store.");
    for (const code of SIGN_IN_ERROR_CODES) {
      expect(code).toMatch(/^[a-z-]{1,16}$/);
      expect(signInErrorMessage(code)).toBe(SIGN_IN_ERRORS[code]);
    }
  });

  it("never shows the URL's own text: anything unknown is the generic sentence; nothing is nothing", () => {
    expect(signInErrorMessage("Call 0800 000 000 to unlock your account")).toBe(SIGN_IN_ERRORS.failed);
    expect(signInErrorMessage("constructor")).toBe(SIGN_IN_ERRORS.failed);
    expect(signInErrorMessage("__proto__")).toBe(SIGN_IN_ERRORS.failed);
    expect(signInErrorMessage("")).toBeNull();
    expect(signInErrorMessage(null)).toBeNull();
    expect(signInErrorMessage(undefined)).toBeNull();
  });

  it("describes the sign-in options: passkeys, and single sign-on by name or null", () => {
    expect(SignInOptions.parse({ passkeys: true, singleSignOn: { displayName: "Acme Workspace" } })).toEqual({
      passkeys: true,
      singleSignOn: { displayName: "Acme Workspace" },
    });
    expect(SignInOptions.parse({ passkeys: false, singleSignOn: null }).singleSignOn).toBeNull();
    expect(SignInOptions.safeParse({ passkeys: true, singleSignOn: { displayName: "x".repeat(61) } }).success).toBe(
      false,
    );
  });
});
