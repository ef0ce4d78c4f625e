/** Where the provider sends the browser back, under ADMIN_ORIGIN: the redirect URI to register at the provider. */
export const SSO_CALLBACK_PATH = "/admin/v1/sso/callback";

/** Express matches paths ignoring case (and a trailing slash), so the check does too. */
const SSO_PATHS = /^\/admin\/v1\/sso\//i;

/**
 * The URL a log line may show: under `/admin/v1/sso/`, without its query, which holds the callback's
 * authorization code and `state` (and, on a refusal, the provider's words); every other URL as it is.
 */
export function loggableUrl(originalUrl: string): string {
  if (!SSO_PATHS.test(originalUrl)) return originalUrl;
  const query = originalUrl.indexOf("?");
  return query < 0 ? originalUrl : `${originalUrl.slice(0, query)}?(query not logged)`;
}
