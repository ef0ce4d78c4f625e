import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Runs `main` with the command line when the module at `moduleUrl` is the script node was started with
 * (`node dist/run.js`), and exits with its code when that is not 0; when a test imports the module, does nothing.
 */
export async function runIfEntry(moduleUrl: string, main: (argv: readonly string[]) => Promise<number>): Promise<void> {
  const script = process.argv[1];
  if (script === undefined || realPath(script) !== fileURLToPath(moduleUrl)) return;
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}

function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}
