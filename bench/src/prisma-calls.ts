/**
 * node dist/prisma-calls.js [--calls=N] [--rounds=N]: what one call of each
 * Prisma API costs this process on PostgreSQL, to pick the cheapest one that
 * keeps the types and the plans right (issue "Performance", PostgreSQL).
 *
 * For each way of making the API's two reads (one pet by id; the filtered page,
 * `status = 'available'` in id order, 101 rows), through the API's generated
 * client and PrismaPg, and through a plain `pg` Pool for reference: N calls
 * one after another (so the figure is the call's own cost, not a pool's
 * overlap), after a warm-up; prints Node CPU µs per call (process.cpuUsage,
 * user + system, every thread of this process) and wall µs per call; rounds
 * alternate the order, the median is printed. Then EXPLAIN of each raw query
 * as PostgreSQL plans it with a parameter, to check that a raw query keeps
 * the index plan.
 *
 * Needs a migrated and seeded database (BENCH_PG_URL, default
 * postgresql://postgres@127.0.0.1:5432/petstore_bench; `corepack pnpm bench`
 * leaves it seeded).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@petstore/api/prisma-client";
import pg from "pg";

const PG_URL = process.env["BENCH_PG_URL"] ?? "postgresql://postgres@127.0.0.1:5432/petstore_bench";
const argv = process.argv.slice(2);
const option = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const CALLS = Number(option("calls") ?? 2_000);
const ROUNDS = Number(option("rounds") ?? 3);

const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: PG_URL, max: 10 }) });
const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
const select = { id: true, name: true, categoryId: true, status: true } as const;
const columns = `"id", "name", "categoryId", "status"`;

const { rows: countRows } = await pool.query<{ max: string | null }>(`SELECT max("id")::text AS max FROM "Pet"`);
const maxId = Number(countRows[0]?.max ?? 0);
if (maxId < 1) throw new Error(`no pets in ${PG_URL}: run corepack pnpm bench first, or seed it`);
const randomId = () => BigInt(1 + Math.floor(Math.random() * Math.min(maxId, 10_000)));

interface Way {
  name: string;
  call: () => Promise<unknown>;
}

const ways: Way[] = [
  {
    name: "getPet  prisma.pet.findUnique (the API's)",
    call: () => prisma.pet.findUnique({ select, where: { id: randomId() } }),
  },
  { name: "getPet  prisma.pet.findFirst", call: () => prisma.pet.findFirst({ select, where: { id: randomId() } }) },
  {
    name: "getPet  prisma.$queryRaw",
    call: () => prisma.$queryRaw`SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "id" = ${randomId()}`,
  },
  {
    name: "getPet  pg Pool (reference)",
    call: () => pool.query(`SELECT ${columns} FROM "Pet" WHERE "id" = $1`, [randomId()]),
  },
  {
    name: "list    prisma.pet.findMany (the API's)",
    call: () => prisma.pet.findMany({ select, where: { status: "available" }, orderBy: { id: "asc" }, take: 101 }),
  },
  {
    name: "list    prisma.$queryRaw",
    call: () =>
      prisma.$queryRaw`SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "status" = ${"available"} AND "id" > ${0} ORDER BY "id" ASC LIMIT ${101}`,
  },
  {
    name: "list    pg Pool (reference)",
    call: () =>
      pool.query(`SELECT ${columns} FROM "Pet" WHERE "status" = $1 AND "id" > $2 ORDER BY "id" ASC LIMIT $3`, [
        "available",
        0,
        101,
      ]),
  },
];

async function measure(way: Way, calls: number): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await way.call();
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / calls, wallUs: ((performance.now() - started) * 1000) / calls };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const figures = new Map<string, { cpu: number[]; wall: number[] }>(
  ways.map((way) => [way.name, { cpu: [], wall: [] }]),
);
try {
  for (const way of ways) await measure(way, Math.min(500, CALLS)); // warm-up: JIT, pool connections, Prisma's caches
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
      const { cpuUs, wallUs } = await measure(way, CALLS);
      figures.get(way.name)!.cpu.push(cpuUs);
      figures.get(way.name)!.wall.push(wallUs);
    }
  }
  console.log(
    `Node CPU and wall time per call, median of ${ROUNDS} rounds of ${CALLS} sequential calls (${maxId} pets)`,
  );
  console.log(`${"way".padEnd(44)} ${"cpu µs".padStart(8)} ${"wall µs".padStart(8)}`);
  for (const way of ways) {
    const { cpu, wall } = figures.get(way.name)!;
    console.log(`${way.name.padEnd(44)} ${median(cpu).toFixed(0).padStart(8)} ${median(wall).toFixed(0).padStart(8)}`);
  }
  // What PostgreSQL plans for the raw queries, with their parameters as Prisma binds them.
  const client = await pool.connect();
  try {
    await client.query("PREPARE by_id(bigint) AS SELECT " + columns + ' FROM "Pet" WHERE "id" = $1');
    await client.query(
      "PREPARE page(text, bigint, bigint) AS SELECT " +
        columns +
        ' FROM "Pet" WHERE "status" = $1 AND "id" > $2 ORDER BY "id" ASC LIMIT $3',
    );
    // Plans with the parameters as values and as a generic plan (what a reused prepared statement may get).
    for (const [label, sql] of [
      ["by id", "EXPLAIN EXECUTE by_id(7)"],
      ["filtered page", "EXPLAIN EXECUTE page('available', 0, 101)"],
    ] as const) {
      const { rows } = await client.query<{ "QUERY PLAN": string }>(sql);
      console.log(`\nplan, ${label}:\n${rows.map((row) => `  ${row["QUERY PLAN"]}`).join("\n")}`);
    }
  } finally {
    client.release();
  }
} finally {
  await prisma.$disconnect();
  await pool.end();
}
