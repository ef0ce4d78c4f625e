import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import { rows, sql } from "../data/sql-work.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, freshDatabase, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { nameKey } from "./name-key.js";

const NAMES = [
  "Émile",
  "emily",
  "EMMA",
  "Emil%",
  "100% cat",
  "100_dog",
  "a_b",
  "axb",
  "back\\slash",
  "backslash",
  "O'Malley",
  "ﬁfi",
  "Zoë",
  "zoe",
  "Ｒｅｘ",
  "Rex",
  "🐕 Rex",
  "Ångström",
  "%",
  "_x",
  "Sir Reginald Fluffington",
  "Émile Ñandú",
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

  it("finds names with a word that starts with the search, ignoring case and accents, in id order", async () => {
    expect(await names({ name: "emi" })).toEqual(["Émile", "emily", "Emil%", "Émile Ñandú"]);
    expect(await names({ name: "EMI" })).toEqual(["Émile", "emily", "Emil%", "Émile Ñandú"]);
    expect(await names({ name: "Émi" })).toEqual(["Émile", "emily", "Emil%", "Émile Ñandú"]);
    expect(await names({ name: "emile" })).toEqual(["Émile", "Émile Ñandú"]);
    expect(await names({ name: "fluff" })).toEqual(["Sir Reginald Fluffington"]);
    expect(await names({ name: "ñand" })).toEqual(["Émile Ñandú"]);
    expect(await names({ name: "NAND" })).toEqual(["Émile Ñandú"]);
    expect(await names({ name: "zoe" })).toEqual(["Zoë", "zoe"]);
    expect(await names({ name: "ZOË" })).toEqual(["Zoë", "zoe"]);
    expect(await names({ name: "angs" })).toEqual(["Ångström"]);
    // Compatibility forms fold too (NFKD): full-width letters, ligatures.
    // What is neither a letter nor a digit separates words: the dog is not a word.
    expect(await names({ name: "rex" })).toEqual(["Ｒｅｘ", "Rex", "🐕 Rex"]);
    expect(await names({ name: "fif" })).toEqual(["ﬁfi"]);
    expect(await names({ name: "🐕" })).toEqual([]);
  });

  it("matches a word's start only, never inside a word", async () => {
    expect(await names({ name: "ex" })).toEqual([]);
    expect(await names({ name: "mile" })).toEqual([]);
    expect(await names({ name: "inal" })).toEqual([]);
    expect(await names({ name: "ington" })).toEqual([]);
  });

  it("matches a search of several words against consecutive words, from a word's start", async () => {
    for (const search of [
      "sir reg",
      "Sir Reginald Fluff",
      "reginald fluff",
      "reginald-fluff",
      "sir  reginald",
      "sir, reginald!",
    ]) {
      expect(await names({ name: search }), search).toEqual(["Sir Reginald Fluffington"]);
    }
    for (const search of ["sir fluff", "reg sir", "sir reginald fluffington x", "nald fluff"]) {
      expect(await names({ name: search }), search).toEqual([]);
    }
  });

  it("reads SQL and LIKE metacharacters as what separates words, never as wildcards or SQL", async () => {
    // No letter or digit: no word, so no pet (not every pet).
    expect(await names({ name: "%" })).toEqual([]);
    expect(await names({ name: "_" })).toEqual([]);
    expect(await names({ name: "100%" })).toEqual(["100% cat", "100_dog"]);
    expect(await names({ name: "100_d" })).toEqual(["100_dog"]);
    expect(await names({ name: "a_b" })).toEqual(["a_b"]);
    expect(await names({ name: "a%b" })).toEqual(["a_b"]);
    expect(await names({ name: "back\\s" })).toEqual(["back\\slash"]);
    expect(await names({ name: "o'm" })).toEqual(["O'Malley"]);
    expect(await names({ name: "' OR '1'='1" })).toEqual([]);
    expect(await names({ name: "x' --" })).toEqual(["_x"]);
  });

  it("trims the search as it trims names", async () => {
    expect(await names({ name: "  zoe  " })).toEqual(["Zoë", "zoe"]);
  });

  it("combines with status and after", async () => {
    const emile = byName.get("Émile")!;
    const status = byName.get("emily")!.status!;
    expect(await names({ name: "emi", status })).toEqual(["emily", "Émile Ñandú"]);
    expect(await names({ name: "emi", after: String(emile.id) })).toEqual(["emily", "Emil%", "Émile Ñandú"]);
  });

  it("combines with the extensions: a category, the total (every match, below `after` too)", async () => {
    const emile = byName.get("Émile")!;
    const response = await listPets({ name: "emi", count: "true", after: String(emile.id) }).expect(200);
    expect((response.body as Pet[]).map((pet) => pet.name)).toEqual(["emily", "Emil%", "Émile Ñandú"]);
    expect(response.headers["x-total-count"]).toBe("4");
    expect(await names({ name: "fluff", categoryId: "1" })).toEqual(["Sir Reginald Fluffington"]);
    expect(await names({ name: "fluff", categoryId: "2" })).toEqual([]);
    const none = await listPets({ name: "🐕", count: "true" }).expect(200);
    expect([none.body, none.headers["x-total-count"]]).toEqual([[], "0"]);
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
        await api()
          .post("/v1/pets")
          .set("Authorization", bearer())
          .send({ name, categoryId: 1, status: i % 2 ? "sold" : "available" })
          .expect(201);
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
        if (next)
          expect(new URL(next, "http://x").searchParams.get("name")).toBe(new URLSearchParams(query).get("name"));
        pages++;
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / Number(new URLSearchParams(query).get("limit"))));
    }
  });

  it("has no next link when the matches fit the page", async () => {
    const response = await api().get("/v1/pets?name=max%202&limit=20").set("Authorization", bearer()).expect(200);
    expect((response.body as Pet[]).map((pet) => pet.name)).toEqual([
      "Max 2",
      "Max 20",
      "Max 21",
      "Max 22",
      "Max 23",
      "Max 24",
    ]);
    expect(response.headers["link"]).toBeUndefined();
  });
});

describe.each(TEST_PROVIDERS)("a name search follows each change of a pet, on %s", (provider) => {
  let t: TestApp;
  const api = () => request(t.app);
  const search = async (name: string) =>
    ((await api().get("/v1/pets").query({ name }).set("Authorization", bearer()).expect(200)).body as Pet[]).map(
      (pet) => pet.name,
    );
  /** The word index's rows of pet `id`: kept by the API on SQLite, by triggers on PostgreSQL. */
  const wordKeys = (id: number) =>
    t.database.sql.read(function* () {
      return (yield* rows<{ key: string }>(sql`SELECT "key" FROM "PetWord" WHERE "petId" = ${id} ORDER BY "key"`)).map(
        (row) => row.key,
      );
    });

  beforeAll(async () => {
    t = await createTestApp({}, provider);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("finds a pet by its words after it is renamed, never after it is deleted, again after it is restored", async () => {
    const created = await api()
      .post("/v1/pets")
      .set("Authorization", bearer())
      .send({ name: "Sir Reginald Fluffington", categoryId: 1 })
      .expect(201);
    const id = (created.body as Pet).id;
    expect(await search("fluff")).toEqual(["Sir Reginald Fluffington"]);
    expect(await wordKeys(id)).toEqual(["fluffington", "reginald fluffington"]);
    await api()
      .patch(`/v1/pets/${id}`)
      .set("Authorization", bearer())
      .set("Content-Type", "application/json-patch+json")
      .send(JSON.stringify([{ op: "replace", path: "/name", value: "Lady Woolly Bear" }]))
      .expect(200);
    expect(await search("fluff")).toEqual([]);
    expect(await search("reginald")).toEqual([]);
    expect(await search("woolly b")).toEqual(["Lady Woolly Bear"]);
    expect(await wordKeys(id)).toEqual(["bear", "woolly bear"]);
    await api()
      .patch(`/v1/pets/${id}`)
      .set("Authorization", bearer())
      .send([{ op: "replace", path: "/status", value: "pending" }])
      .expect(200);
    expect(await wordKeys(id)).toEqual(["bear", "woolly bear"]);
    // With an Idempotency-Key (on SQLite the unit of work; without one, SQLite's prepared statements): the same rows.
    await api()
      .patch(`/v1/pets/${id}`)
      .set("Authorization", bearer())
      .set("Idempotency-Key", "rename-twice")
      .send([{ op: "replace", path: "/name", value: "Lady Woolly Bruin" }])
      .expect(200);
    expect(await wordKeys(id)).toEqual(["bruin", "woolly bruin"]);
    await api()
      .patch(`/v1/pets/${id}`)
      .set("Authorization", bearer())
      .send([{ op: "replace", path: "/name", value: "Lady Woolly Bear" }])
      .expect(200);
    expect(await wordKeys(id)).toEqual(["bear", "woolly bear"]);
    await api().delete(`/v1/pets/${id}`).set("Authorization", bearer()).expect(204);
    expect(await search("bear")).toEqual([]);
    expect(await wordKeys(id)).toEqual([]);
    await api().post(`/v1/deleted-pets/${id}/restore`).set("Authorization", bearer()).expect(200);
    expect(await search("bear")).toEqual(["Lady Woolly Bear"]);
    expect(await wordKeys(id)).toEqual(["bear", "woolly bear"]);
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
    await insertWithoutKey(["Éloïse", "ELLA", "Ｅｌｍｏ", "Sir Elton"]);
    const search = async () =>
      ((await request(t.app).get("/v1/pets?name=el").set("Authorization", bearer()).expect(200)).body as Pet[]).map(
        (pet) => pet.name,
      );
    expect(await search()).toEqual([]);
    expect(await t.database.pets.fillMissingNameKeys()).toBe(4);
    // A later word too: the key's triggers index it as the key is filled.
    expect(await search()).toEqual(["Éloïse", "ELLA", "Ｅｌｍｏ", "Sir Elton"]);
    expect(await t.database.pets.fillMissingNameKeys()).toBe(0);
  });
});

/**
 * Names the migrations key in SQL: 0003_name_key keyed printable ASCII names by lower case, and
 * 0014_word_search (SQLite) / 0015_word_search (PostgreSQL) keep that key only for names of ASCII letters
 * and digits with single spaces between them (where lower case is the words' key), leaving every other
 * name to the API.
 */
const MIGRATION_SAMPLES = [
  "Rex",
  "ZZ top",
  "pet 4242",
  "O'Malley",
  "100% _cat\\",
  " Rex",
  "Rex ",
  "Rex  Max",
  "~!@#",
  "İzmir",
  "Émile",
  "Ｒｅｘ",
  "a\u00a0b",
  "ß",
];

describe.each(TEST_PROVIDERS)("the migrations' SQL search key on %s", (provider) => {
  it("is nameKey's for every name the word search's migration keeps, and leaves every other name to the API", async () => {
    const database = await freshDatabaseFor(provider);
    try {
      for (const name of MIGRATION_SAMPLES) {
        const simple = /^[A-Za-z0-9]+( [A-Za-z0-9]+)*$/.test(name);
        const [key, kept] = await database.fold(name);
        expect(kept, name).toBe(simple);
        if (simple) expect(key, name).toBe(nameKey(name));
      }
    } finally {
      await database.close();
    }
  });
});

/** Evaluates the migrations' key expression and the word search migration's condition on one name. */
async function freshDatabaseFor(provider: (typeof TEST_PROVIDERS)[number]) {
  const database = await freshDatabase(provider);
  if (provider === "sqlite") {
    const db = new Sqlite(sqliteFilePath(database.url));
    return {
      fold: async (name: string) => {
        const row = db
          .prepare(
            `SELECT lower(@name) AS "key",
             NOT (@name GLOB '*[^A-Za-z0-9 ]*' OR @name GLOB ' *' OR @name GLOB '* ' OR instr(@name, '  ') > 0) AS "kept"`,
          )
          .get({ name }) as { key: string; kept: number };
        return [row.key, row.kept === 1] as const;
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
      const { rows } = await client.query<{ key: string; kept: boolean }>(
        `SELECT lower($1 COLLATE "C") AS "key", $1 ~ '^[A-Za-z0-9]+( [A-Za-z0-9]+)*$' AS "kept"`,
        [name],
      );
      return [rows[0]!.key, rows[0]!.kept] as const;
    },
    close: async () => {
      await client.end();
      await database.remove();
    },
  };
}
