import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * An issued key (scope write: createPet needs it, reads are covered) made on `databaseUrl` with the API's own operator
 * command, `keys create`, as an operator would. Returns the `psk_` secret it
 * prints once.
 */
export function createIssuedKey(apiRoot: string, databaseUrl: string): string {
  const secret = execFileSync(
    process.execPath,
    [path.join(apiRoot, "dist", "keys-command.js"), "create", "--name", "bench issued key", "--scope", "write"],
    {
      cwd: apiRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    },
  )
    .toString()
    .trim();
  if (!secret.startsWith("psk_")) throw new Error(`keys create printed no psk_ secret: ${secret.slice(0, 80)}`);
  return secret;
}
