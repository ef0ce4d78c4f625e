import { SIGNED_IN_COOKIE_NAME } from "@petstore/contract";

/**
 * Whether this browser signed in: the API sets a readable cookie beside the HttpOnly session cookie, with
 * the same lifetime, and clears both at sign-out. Without it, a page load skips asking for a token the API
 * would refuse (a 401 in the console) and shows sign-in at once, in its final shape.
 */
export function browserSignedIn(): boolean {
  return document.cookie.split(";").some((part) => part.trim().startsWith(`${SIGNED_IN_COOKIE_NAME}=`));
}

/** The session turned out to be over (ended elsewhere, expired): the next load need not ask again. */
export function forgetSignedIn(): void {
  document.cookie = `${SIGNED_IN_COOKIE_NAME}=; Path=/; Max-Age=0; Secure; SameSite=Strict`;
}
