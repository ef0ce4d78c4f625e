/**
 * `prisma generate` (src/generated/pg), only when what it is made from changed since it was last made here:
 * the schema (prisma/postgresql, whose models.prisma is the shared one), its config and Prisma's version.
 *
 * Run by `postinstall` and `dev`: a fresh clone's first `pnpm dev` finds the client the install made, a
 * current one costs no Prisma CLI start (about 3 s on 2 cores), and after a pull that changed the schema the
 * client is made again before the API starts. `build` and `typecheck` always generate (`pnpm generate`).
 * Plain JavaScript, so Node runs it without a loader. See docs/development.md.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaDir = path.join(root, "prisma", "postgresql");
const output = path.join(root, "src", "generated", "pg");
const stamp = path.join(output, ".generated-from.sha256");

const inputs = [
  ...readdirSync(schemaDir)
    .filter((name) => name.endsWith(".prisma"))
    .sort()
    .map((name) => path.join(schemaDir, name)),
  path.join(root, "prisma.postgresql.config.ts"),
  path.join(root, "node_modules", "prisma", "package.json"),
  path.join(root, "node_modules", "@prisma", "client", "package.json"),
];
const hash = createHash("sha256");
for (const file of inputs)
  hash
    .update(`${path.relative(root, file)}\0`)
    .update(readFileSync(file))
    .update("\0");
const digest = hash.digest("hex");

if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === digest) process.exit(0);

const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
const generated = spawnSync(process.execPath, [prisma, "generate", "--config", "prisma.postgresql.config.ts"], {
  cwd: root,
  stdio: "inherit",
  // The CLI's "Update available" box is noise here: the version is the lockfile's.
  env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
if (generated.status !== 0) process.exit(generated.status ?? 1);
writeFileSync(stamp, `${digest}\n`);
