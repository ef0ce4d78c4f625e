import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, freshDatabase, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { nameKey } from "./name-key.js";

const NAMES = [
  "Émile", "emily", "EMMA", "Emil%", "100% cat", "100_dog", "a_b", "axb", "back\\slash", "backslash",
  "O'Malley", "ﬁfi", "Zoë", "zoe", "Ｒｅｘ", "Rex", "🐕 Rex", "Ångström", "%", "_x",
];

describe.each(TEST_PROVIDERS)("listPets name search on %s", (provider) => {
  let t: TestApp;
  const byName = new Map<string, Pet>();

  const listPets = (query: Record<string, string | string[]>) =>
    request(t.app).get("/v1/pets").query(query).set("Authorization", bearer());
  const names = async (query: Record<string, string | string[]>) => {
    const response = await listPets({ limit: "100", ...query }).expect(200);
    return (response.body as Pet[]).map((pet) => pet.name);
  };

  beforeAll(async () => {
    t = await createTestApp({}, provider);
    for (const [index, name] of NAMES.entries()) {
      const status = (["available", "pending", "sold", undefined] as const)[index % 4];
      const response = await request(t.app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name, categoryId: 1, ...(status ? { status } : {}) })
        .expect(201);
      byName.set(name, Pet.parse(response.body));
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it("finds names that start with the search, ignoring case and accents, in id order", async () => {
    expect(await names({ name: "emi" })).toEqual(["Émile", "emily", "Emil%"]);
    expect(await names({ name: "EMI" })).toEqual(["Émile", "emily", "Emil%"]);
    expect(await names({ name: "Émi" })).toEqual(["Émile", "emily", "Emil%"]);
    expect(await names({ name: "emile" })).toEqual(["Émile"]);
    expect(await names({ name: "zoe" })).toEqual(["Zoë", "zoe"]);
    expect(await names({ name: "ZOË" })).toEqual(["Zoë", "zoe"]);
    expect(await names({ name: "angs" })).toEqual(["Ångström"]);
    // Compatibility forms fold too (NFKD): full-width letters, ligatures.
    expect(await names({ name: "rex" })).toEqual(["Ｒｅｘ", "Rex"]);
    expect(await names({ name: "fif" })).toEqual(["ﬁfi"]);
    expect(await names({ name: "🐕" })).toEqual(["🐕 Rex"]);
  });

  it("matches a prefix only, never inside a name", async () => {
    expect(await names({ name: "ex" })).toEqual([]);
    expect(await names({ name: "mile" })).toEqual([]);
  });

  it("takes SQL and LIKE metacharacters literally", async () => {
    expect(await names({ name: "%" })).toEqual(["%"]);
    expect(await names({ name: "_" })).toEqual(["_x"]);
    expect(await names({ name: "100%" })).toEqual(["100% cat"]);
    expect(await names({ name: "100_" })).toEqual(["100_dog"]);
    expect(await names({ name: "a_" })).toEqual(["a_b"]);
    expect(await names({ name: "emil%" })).toEqual(["Emil%"]);
    expect(await names({ name: "back\\" })).toEqual(["back\\slash"]);
    expect(await names({ name: "o'm" })).toEqual(["O'Malley"]);
    expect(await names({ name: "' OR '1'='1" })).toEqual([]);
    expect(await names({ name: "x' --" })).toEqual([]);
  });

  it("trims the search as it trims names", async () => {
    expect(await names({ name: "  zoe  " })).toEqual(["Zoë", "zoe"]);
  });

  it("combines with status and after", async () => {
    const emile = byName.get("Émile")!;
    const status = byName.get("emily")!.status!;
    expect(await names({ name: "emi", status })).toEqual(["emily"]);
    expect(await names({ name: "emi", after: String(emile.id) })).toEqual(["emily", "Emil%"]);
  });

  it("400 VALIDATION_ERROR naming name: empty, blank, too long, control characters, repeated", async () => {
    for (const bad of ["", "   ", "a".repeat(101), "a\u0000", "a\u0085", "\u0007", ["a", "b"]]) {
      const body = expectError(await listPets({ name: bad }), 400, "VALIDATION_ERROR");
      expect(body.message, JSON.stringify(bad)).toMatch(/\bname\b/);
    }
  });
});

describe.each(TEST_PROVIDERS)("listPets name search paging on %s", (provider) => {
  let t: TestApp;
  const api = () => request(t.app);

  beforeAll(async () => {
    t = await createTestApp({}, provider);
    for (let i = 0; i < 25; i++) {
      for (const name of [`Bella ${i}`, `Max ${i}`]) {
        await api().post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1, status: i % 2 ? "sold" : "available" }).expect(201);
      }
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it("follows Link rel=next, which keeps name (and status), to every match in id order", async () => {
    for (const [query, expected] of [
      ["?name=bella&limit=10", Array.from({ length: 25 }, (_, i) => `Bella ${i}`)],
      ["?name=BEL&status=sold&limit=4", Array.from({ length: 12 }, (_, i) => `Bella ${2 * i + 1}`)],
    ] as const) {
      const seen: string[] = [];
      let next: string | undefined = `/v1/pets${query}`;
      let pages = 0;
      while (next) {
        const response = await api().get(next).set("Authorization", bearer()).expect(200);
        seen.push(...(response.body as Pet[]).map((pet) => pet.name));
        const link = response.headers["link"] as string | undefined;
        next = link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
        if (next) expect(new URL(next, "http://x").searchParams.get("name")).toBe(new URLSearchParams(query).get("name"));
        pages++;
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / Number(new URLSearchParams(query).get("limit"))));
    }
  });

  it("has no next link when the matches fit the page", async () => {
    const response = await api().get("/v1/pets?name=max%202&limit=20").set("Authorization", bearer()).expect(200);
    expect((response.body as Pet[]).map((pet) => pet.name)).toEqual(["Max 2", "Max 20", "Max 21", "Max 22", "Max 23", "Max 24"]);
    expect(response.headers["link"]).toBeUndefined();
  });
});

describe.each(TEST_PROVIDERS)("search keys of pets stored without one, on %s", (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, provider);
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Stores pets as a database from before the search key holds them: no key. */
  async function insertWithoutKey(names: string[]) {
    if (provider === "sqlite") {
      const db = new Sqlite(sqliteFilePath(t.config.databaseUrl));
      const insert = db.prepare(`INSERT INTO "Pet" ("name", "categoryId") VALUES (?, 1)`);
      for (const name of names) insert.run(name);
      db.close();
      return;
    }
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    for (const name of names) await client.query(`INSERT INTO "Pet" ("name", "categoryId") VALUES ($1, 1)`, [name]);
    await client.end();
  }

  it("are computed by fillMissingNameKeys (run at start-up), after which a search finds them", async () => {
    await insertWithoutKey(["Éloïse", "ELLA", "Ｅｌｍｏ"]);
    const search = async () =>
      ((await request(t.app).get("/v1/pets?name=el").set("Authorization", bearer()).expect(200)).body as Pet[]).map((pet) => pet.name);
    expect(await search()).toEqual([]);
    expect(await t.database.pets.fillMissingNameKeys()).toBe(3);
    expect(await search()).toEqual(["Éloïse", "ELLA", "Ｅｌｍｏ"]);
    expect(await t.database.pets.fillMissingNameKeys()).toBe(0);
  });
});

/** Printable ASCII names, which the migrations key in SQL (0003_name_key); the rest are left to the API. */
const MIGRATION_SAMPLES = ["Rex", "O'Malley", "100% _cat\\", "ZZ top", "~!@#", "İzmir", "Émile", "Ｒｅｘ", "a\u00a0b", "ß"];

describe.each(TEST_PROVIDERS)("the migration's SQL search key on %s", (provider) => {
  it("is nameKey's for every printable ASCII name, and leaves every other name to the API", async () => {
    const database = await freshDatabaseFor(provider);
    try {
      for (const name of MIGRATION_SAMPLES) {
        const ascii = /^[ -~]*$/.test(name);
        const [key, keyed] = await database.fold(name);
        expect(keyed, name).toBe(ascii);
        if (ascii) expect(key, name).toBe(nameKey(name));
      }
    } finally {
      await database.close();
    }
  });
});

/** Evaluates the migrations' backfill expression and condition on one name. */
async function freshDatabaseFor(provider: (typeof TEST_PROVIDERS)[number]) {
  const database = await freshDatabase(provider);
  if (provider === "sqlite") {
    const db = new Sqlite(sqliteFilePath(database.url));
    return {
      fold: async (name: string) => {
        const row = db.prepare(`SELECT lower(@name) AS "key", @name NOT GLOB '*[^ -~]*' AS "keyed"`).get({ name }) as { key: string; keyed: number };
        return [row.key, row.keyed === 1] as const;
      },
      close: async () => {
        db.close();
        await database.remove();
      },
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    fold: async (name: string) => {
      const { rows } = await client.query<{ key: string; keyed: boolean }>(`SELECT lower($1 COLLATE "C") AS "key", $1 ~ '^[ -~]*$' AS "keyed"`, [name]);
      return [rows[0]!.key, rows[0]!.keyed] as const;
    },
    close: async () => {
      await client.end();
      await database.remove();
    },
  };
}
