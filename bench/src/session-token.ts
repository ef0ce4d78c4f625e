/**
 * A `pst_` session token, as the admin app gets one: a browser session started
 * with a key (`POST /admin/v1/session/start`, the key as bearer, answered with
 * the `__Host-petstore-session` cookie), then `POST /admin/v1/session/token`
 * with that cookie and the API's own origin as `Origin` (the bench runs the
 * API without ADMIN_ORIGIN, so its own scheme and host are the app's origin).
 * The token has the key's scope and lasts 10 minutes: mint one per run.
 */
export async function createSessionToken(apiUrl: string, apiKey: string): Promise<string> {
  const cookie = await startBrowserSession(apiUrl, apiKey);
  const minted = await fetch(`${apiUrl}/admin/v1/session/token`, {
    method: "POST",
    headers: { cookie, origin: new URL(apiUrl).origin },
  });
  const body = (await minted.json()) as { token?: string };
  if (minted.status !== 201 || !body.token?.startsWith("pst_"))
    throw new Error(`session/token answered ${minted.status}`);
  return body.token;
}

/**
 * A browser session started with a key, as the sign-in form starts one: `POST /admin/v1/session/start`
 * with the key as bearer. Returns its cookie as a `Cookie` header sends it (`__Host-petstore-session=...`).
 */
export async function startBrowserSession(apiUrl: string, apiKey: string): Promise<string> {
  const started = await fetch(`${apiUrl}/admin/v1/session/start`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const cookie = started.headers.get("set-cookie")?.split(";")[0];
  if (started.status !== 201 || !cookie)
    throw new Error(`session/start answered ${started.status}${cookie ? "" : ", no cookie"}`);
  return cookie;
}
