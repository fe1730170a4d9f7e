import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/postgresql";
import { describe, it } from "vitest";
import type { Migration } from "./migrate.ts";
import { openDatabase } from "./open-database.ts";
import { platformMigrations } from "./platform-migrations.ts";
import { openTestDatabase } from "./test-database.ts";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
const Note = defineEntity({
  name: "Note",
  tableName: "note",
  properties: { id: p.string().primary(), body: p.string() },
});
const migrations: Migration[] = [
  { name: "0001_note", up: "CREATE TABLE note (id text PRIMARY KEY, body text NOT NULL)" },
  { name: "0002_note_index", up: "CREATE INDEX note_body ON note (body)" },
];

async function tablesOf(orm: Awaited<ReturnType<typeof openDatabase>>, schema: string): Promise<string[]> {
  const rows = await orm.em
    .fork()
    .execute<{ table_name: string }[]>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
      [schema],
    );
  return rows.map((r) => r.table_name);
}

describe("openDatabase", () => {
  it("creates the schema with the platform tables and the service's own, and maps entities into it", async () => {
    const db = await openTestDatabase({ prefix: "db_open", entities: [Note], migrations });
    try {
      assert.deepEqual(await tablesOf(db.orm, db.schema), [
        "note",
        "outbox_event",
        "processed_event",
        "schema_migration",
      ]);
      await db.orm.em.fork().transactional(async (em) => {
        em.create(Note, { id: "n1", body: "hello" });
      });
      const found = await db.orm.em.fork().findOneOrFail(Note, { id: "n1" });
      assert.equal(found.body, "hello");
    } finally {
      await db.close();
    }
  });

  it("lets several processes open the same schema at once and applies each migration exactly once", async () => {
    const schema = `t_db_race_${randomBytes(5).toString("hex")}`;
    const orms = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ url, schema, entities: [Note], migrations, pool: { max: 2 } })),
    );
    try {
      const rows = await orms[0]!.em
        .fork()
        .execute<{ name: string }[]>(`SELECT name FROM "${schema}".schema_migration ORDER BY name`);
      assert.deepEqual(
        rows.map((r) => r.name),
        // The service's own and every platform migration, each once (the platform list grows; the
        // count of rows per name is what this test is about).
        [...migrations, ...platformMigrations].map((m) => m.name).sort(),
      );
    } finally {
      await orms[0]!.em.fork().execute(`DROP SCHEMA "${schema}" CASCADE`);
      await Promise.all(orms.map((o) => o.close()));
    }
  });

  it("applies only the new migrations when reopened, and rolls a failing batch back whole", async () => {
    const db = await openTestDatabase({ prefix: "db_reopen", entities: [Note], migrations: migrations.slice(0, 1) });
    try {
      const broken: Migration[] = [...migrations, { name: "0003_broken", up: "ALTER TABLE missing ADD COLUMN x int" }];
      await assert.rejects(openDatabase({ url, schema: db.schema, entities: [Note], migrations: broken }), /missing/);
      const tables = await tablesOf(db.orm, db.schema);
      assert.ok(tables.includes("note"));
      const indexes = await db.orm.em
        .fork()
        .execute(`SELECT 1 FROM pg_indexes WHERE schemaname = ? AND indexname = 'note_body'`, [db.schema]);
      assert.equal(indexes.length, 0, "0002 ran in the same transaction as the failed 0003, so it is rolled back too");

      const again = await openDatabase({ url, schema: db.schema, entities: [Note], migrations });
      await again.close();
      const rows = await db.orm.em
        .fork()
        .execute<{ name: string }[]>(`SELECT name FROM "${db.schema}".schema_migration`);
      assert.ok(rows.some((r) => r.name === "0002_note_index"));
    } finally {
      await db.close();
    }
  });

  it("refuses a schema name that is not a plain identifier", async () => {
    await assert.rejects(
      openDatabase({ url, schema: 'x"; DROP', entities: [], migrations: [] }),
      /invalid schema name/,
    );
  });
});
