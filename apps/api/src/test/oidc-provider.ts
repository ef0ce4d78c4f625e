import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse } from "node:http";
import { createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Provider, {
  type Adapter,
  type AdapterPayload,
  type Configuration,
  type KoaContextWithOIDC,
} from "oidc-provider";

/**
 * A real OpenID provider for tests: `oidc-provider` (the certified Node implementation) on
 * `https://localhost:<random port>`, with a certificate authority made for this run and a server
 * certificate for localhost signed by it.
 *
 * - openid-client refuses an `http` issuer, hence https and the throwaway authority.
 * - Node trusts the authority only if told: `NODE_EXTRA_CA_CERTS` is read at process start, so an
 *   API process spawned by a test gets `NODE_EXTRA_CA_CERTS=<caFile>` in its environment, while
 *   in-process tests use `provider.fetch` (it trusts `caPem`) as openid-client's custom fetch.
 * - A browser (Playwright) does not read either: give its context `ignoreHTTPSErrors: true`.
 * - oidc-provider 9 prints once, on import, "oidc-provider WARNING: Unsupported runtime. Use Node.js
 *   v22.x LTS, or a later LTS release." on Node 20: it runs and passes these tests there all the same.
 *
 * One confidential client (`client_secret_basic` unless asked otherwise), PKCE required. Login is
 * a minimal page, usable by Playwright and by `signIn` below: a form with an `Email` field and a
 * `Continue` button (and `Cancel`, which answers `access_denied`). No password, no consent screen:
 * the client is first-party, its grant is made at login.
 */

export interface TestAccount {
  /** The `sub` claim. */
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  groups: string[];
}

/** Alice and Bob map to roles with `petstore-admins=admin,front-desk=write`; Carol's group maps to none; Dave's email is unverified. */
export const TEST_ACCOUNTS: readonly TestAccount[] = [
  {
    subject: "a1f0c6e2-alice",
    email: "alice@example.test",
    emailVerified: true,
    name: "Alice Admin",
    groups: ["petstore-admins", "everyone"],
  },
  {
    subject: "b2e1d7f3-bob",
    email: "bob@example.test",
    emailVerified: true,
    name: "Bob Frontdesk",
    groups: ["front-desk", "everyone"],
  },
  {
    subject: "c3d2e8a4-carol",
    email: "carol@example.test",
    emailVerified: true,
    name: "Carol Elsewhere",
    groups: ["unmapped", "everyone"],
  },
  {
    subject: "d4c3f9b5-dave",
    email: "dave@example.test",
    emailVerified: false,
    name: "Dave Unverified",
    groups: ["front-desk"],
  },
];

/** The role map the accounts above are made for. */
export const TEST_ROLE_MAP = "petstore-admins=admin,front-desk=write";

/** A fetch that trusts the test authority. It never follows redirects (as `redirect: "manual"`), so callers see each hop. */
export type TrustingFetch = (
  url: string | URL,
  init?: { method?: string; headers?: Record<string, string> | Headers; body?: unknown; signal?: AbortSignal | null },
) => Promise<Response>;

export interface TestOidcProvider {
  /** `https://localhost:<port>`: OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The certificate authority, PEM, and a file holding it (for `NODE_EXTRA_CA_CERTS`). */
  caPem: string;
  caFile: string;
  fetch: TrustingFetch;
  /**
   * Plays the browser from the authorization URL: follows the provider's redirects (keeping its
   * cookies), fills `Email` with `email` and presses `Continue`, and returns the URL the provider
   * sends the browser back to (the callback, with `code`, `state` and `iss`), without opening it.
   * `{ cancel: true }` presses `Cancel` instead.
   */
  signIn(authorizationUrl: URL | string, email: string | { cancel: true }): Promise<URL>;
  close(): Promise<void>;
}

export interface TestOidcProviderOptions {
  /** The client's registered redirect URIs (`<ADMIN_ORIGIN>/admin/v1/sso/callback`). */
  redirectUris: string[];
  /** Claims in the ID token (default); false: in userinfo only, as oidc-provider does by default. */
  claimsInIdToken?: boolean;
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
  accounts?: readonly TestAccount[];
  /** Default: a free port. */
  port?: number;
  /** Default: 32 random bytes. A fixed one lets a static configuration (Playwright's `webServer.env`) name it. */
  clientSecret?: string;
  /** Also write the authority's PEM here (for a `NODE_EXTRA_CA_CERTS` named before the provider starts). */
  caFile?: string;
}

/**
 * oidc-provider's storage (grants, codes, sessions, interactions) in a Map of this provider's own, expiry
 * included: its built-in one is the same, but warns at every start that it is for development only.
 */
function memoryAdapter(): (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number | undefined }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : undefined;
      store.set(`${model}:${id}`, { payload, expiresAt });
      if (payload.uid) store.set(`uid:${model}:${payload.uid}`, { payload: { jti: id } as AdapterPayload, expiresAt });
      if (payload.userCode)
        store.set(`userCode:${model}:${payload.userCode}`, { payload: { jti: id } as AdapterPayload, expiresAt });
      if (payload.grantId) {
        const ids = (live(`grant:${payload.grantId}`)?.["ids"] as string[] | undefined) ?? [];
        store.set(`grant:${payload.grantId}`, {
          payload: { ids: [...ids, `${model}:${id}`] } as AdapterPayload,
          expiresAt: undefined,
        });
      }
    },
    async find(id) {
      return live(`${model}:${id}`);
    },
    async findByUid(uid) {
      const id = live(`uid:${model}:${uid}`)?.jti;
      return id ? live(`${model}:${id}`) : undefined;
    },
    async findByUserCode(userCode) {
      const id = live(`userCode:${model}:${userCode}`)?.jti;
      return id ? live(`${model}:${id}`) : undefined;
    },
    async consume(id) {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      store.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const key of (live(`grant:${grantId}`)?.["ids"] as string[] | undefined) ?? []) store.delete(key);
      store.delete(`grant:${grantId}`);
    },
  });
}

/** A CA and a localhost certificate it signs, with the openssl command-line tool, valid one day. */
function makeCertificates(folder: string): { caPem: string; caFile: string; key: string; cert: string } {
  const file = (name: string) => path.join(folder, name);
  const openssl = (...args: string[]) => {
    try {
      execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "the openssl command is not installed"
          : String((error as { stderr?: Buffer }).stderr ?? error);
      throw new Error(`test OpenID provider: could not make its certificates: ${reason}`);
    }
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ec,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=Petstore throwaway test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("req", ...ec, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost");
  writeFileSync(
    file("server.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-set_serial",
    `0x${randomBytes(8).toString("hex")}`,
    "-days",
    "1",
    "-extfile",
    file("server.ext"),
    "-out",
    file("server.pem"),
  );
  return {
    caPem: readFileSync(file("ca.pem"), "utf8"),
    caFile: file("ca.pem"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
  };
}

/** A fetch over node:https that trusts `ca`, answering the global `Response` (openid-client checks `instanceof Response`). */
export function fetchTrusting(ca: string): TrustingFetch {
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    let body: Buffer | undefined;
    const given = init.body;
    if (typeof given === "string") body = Buffer.from(given);
    else if (given instanceof URLSearchParams) {
      body = Buffer.from(given.toString());
      if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    } else if (given instanceof Uint8Array) body = Buffer.from(given);
    else if (given instanceof ArrayBuffer) body = Buffer.from(new Uint8Array(given));
    else if (given !== undefined && given !== null) throw new TypeError("fetchTrusting: unsupported body");
    if (body) headers.set("content-length", String(body.length));
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(
        new URL(url),
        { method: init.method ?? "GET", headers: Object.fromEntries(headers), ca, signal: init.signal ?? undefined },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const answerHeaders = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
                answerHeaders.append(name, item);
            }
            const status = incoming.statusCode ?? 500;
            const nullBody = status === 204 || status === 304 || (init.method ?? "GET") === "HEAD";
            resolve(
              new Response(nullBody ? null : Buffer.concat(chunks), {
                status,
                statusText: incoming.statusMessage ?? "",
                headers: answerHeaders,
              }),
            );
          });
        },
      );
      // A failed connection is a TypeError, as with the global fetch.
      outgoing.on("error", (error) =>
        reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error })),
      );
      outgoing.end(body);
    });
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, problem?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign in</title></head>
<body><main>
<h1>Sign in to the test identity provider</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required>
<button type="submit">Continue</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-oidc-"));
  const { caPem, caFile, key, cert } = makeCertificates(folder);
  const accounts = options.accounts ?? TEST_ACCOUNTS;
  const clientId = "petstore-admin";
  const clientSecret = options.clientSecret ?? randomBytes(32).toString("base64url");
  if (options.caFile) writeFileSync(options.caFile, caPem);

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer({ key, cert }, (req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const issuer = `https://localhost:${(server.address() as AddressInfo).port}`;

  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const configuration: Configuration = {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    // oidc-provider's default (true) keeps scope claims out of the ID token when an access token is issued.
    conformIdTokenClaims: options.claimsInIdToken === false,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name"],
      groups: ["groups"],
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.find((candidate) => candidate.subject === sub);
      if (!account) return undefined;
      return {
        accountId: account.subject,
        claims: () => ({
          sub: account.subject,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
          given_name: account.name.split(" ")[0],
          family_name: account.name.split(" ").slice(1).join(" "),
          groups: account.groups,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A first-party client: its grant (every scope asked for) is made at login instead of on a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, provider: self } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.["consent"]?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await self.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new self.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(ctx.oidc.params?.["scope"] ?? "openid"));
      await grant.save();
      return grant;
    },
    jwks: {
      keys: [{ ...signingKey, kid: "test-key", alg: "RS256", use: "sig" }] as NonNullable<
        Configuration["jwks"]
      >["keys"],
    },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    // Set, so that oidc-provider does not print a notice for each default it uses.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  };
  const provider = new Provider(issuer, configuration);
  const providerHandler = provider.callback();

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error("interaction cookie of another interaction");
    if (req.method === "GET" && action === undefined) {
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(loginPage(uid));
      return;
    }
    if (req.method === "POST" && action === "abort") {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method === "POST" && action === "login") {
      const email = ((await formOf(req)).get("email") ?? "").trim().toLowerCase();
      const account = accounts.find((candidate) => candidate.email === email);
      if (!account) {
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
          .end(loginPage(uid, "No account has that email."));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.subject } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(405).end();
  };
  handle = (req, res) => {
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|abort))?$/.exec(
      new URL(req.url ?? "/", issuer).pathname,
    );
    if (!match) {
      void providerHandler(req, res);
      return;
    }
    interaction(req, res, match[1]!, match[2]).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
      res.end(`test identity provider: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  const fetch = fetchTrusting(caPem);

  async function signIn(authorizationUrl: URL | string, who: string | { cancel: true }): Promise<URL> {
    const jar = new Map<string, string>();
    const send = async (url: URL, init: { method?: string; body?: URLSearchParams } = {}) => {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      const answer = await fetch(url, { ...init, headers: cookie ? { cookie } : {} });
      for (const line of answer.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
        else jar.set(name, value);
      }
      return answer;
    };
    let url = new URL(authorizationUrl);
    let answer = await send(url);
    for (let hop = 0; hop < 20; hop++) {
      if (answer.status >= 300 && answer.status < 400) {
        const next = new URL(answer.headers.get("location") ?? "", url);
        if (next.origin !== issuer) return next;
        url = next;
        answer = await send(url);
        continue;
      }
      const page = await answer.text();
      const uid = /action="\/interaction\/([A-Za-z0-9_-]+)\/login"/.exec(page)?.[1];
      if (answer.status !== 200 || !uid || /role="alert"/.test(page)) {
        throw new Error(
          `test identity provider: expected its sign-in form at ${url.pathname}, got ${answer.status}: ${page.slice(0, 300)}`,
        );
      }
      url = new URL(`/interaction/${uid}/${typeof who === "string" ? "login" : "abort"}`, issuer);
      answer = await send(url, {
        method: "POST",
        body: new URLSearchParams(typeof who === "string" ? { email: who } : {}),
      });
    }
    throw new Error("test identity provider: too many redirects");
  }

  return {
    issuer,
    clientId,
    clientSecret,
    caPem,
    caFile: options.caFile ?? caFile,
    fetch,
    signIn,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Run alone (`tsx apps/api/src/test/oidc-provider.ts`), for a test that starts its servers as processes:
 * OIDC_TEST_REDIRECT_URIS (comma-separated, required), OIDC_TEST_PORT, OIDC_TEST_CLIENT_SECRET and
 * OIDC_TEST_CA_FILE as the options above; prints one JSON line `{ issuer, clientId, caFile }` when it
 * listens, and stops on SIGTERM or SIGINT.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const env = process.env;
  const redirectUris = (env["OIDC_TEST_REDIRECT_URIS"] ?? "").split(",").filter((uri) => uri.length > 0);
  if (redirectUris.length === 0) {
    console.error("OIDC_TEST_REDIRECT_URIS is required (the client's redirect URIs, comma-separated)");
    process.exit(2);
  }
  const provider = await startOidcProvider({
    redirectUris,
    ...(env["OIDC_TEST_PORT"] ? { port: Number(env["OIDC_TEST_PORT"]) } : {}),
    ...(env["OIDC_TEST_CLIENT_SECRET"] ? { clientSecret: env["OIDC_TEST_CLIENT_SECRET"] } : {}),
    ...(env["OIDC_TEST_CA_FILE"] ? { caFile: env["OIDC_TEST_CA_FILE"] } : {}),
  });
  console.log(JSON.stringify({ issuer: provider.issuer, clientId: provider.clientId, caFile: provider.caFile }));
  const stop = () => void provider.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
