import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { idList, preparedRead } from "@flowstate/shared/db/prepared-read";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { planCounts, planNodes } from "@flowstate/shared/testing/query-plans";
import { afterAll, beforeAll, describe, it } from "vitest";
import { connectorRows } from "./connector-rows.ts";
import { entities } from "./entities.ts";
import { migrations } from "./migrations.ts";

describe("the connector row reader", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "conn_rows", entities, migrations });
  });
  afterAll(() => db.close());

  it("belongs to its ORM: an instance over a schema of the same name in another database reads its own rows", async () => {
    const tenantId = `tnt_${randomBytes(12).toString("hex")}`;
    await db.orm.em
      .fork()
      .execute(`INSERT INTO "${db.schema}".marketplace_connector (tenant_id, external_id_enc) VALUES (?, ?)`, [
        tenantId,
        Buffer.from("sealed"),
      ]);
    const url = new URL(db.url);
    url.pathname = "/postgres";
    const other = await openDatabase({ url: url.href, schema: db.schema, entities, migrations, pool: { max: 2 } });
    try {
      assert.equal((await connectorRows(db.orm, db.schema).read(tenantId))?.tenant_id, tenantId);
      // Before: a module-level map keyed by schema name answered with the first ORM's reader and database.
      assert.equal(await connectorRows(other, db.schema).read(tenantId), undefined);
    } finally {
      await other.em.fork().execute(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`);
      await other.close();
    }
  });

  it("keeps one plan of the status read per connection, and it looks each tenant up by its key", async () => {
    await db.orm.em.fork().execute(
      `INSERT INTO "${db.schema}".marketplace_connector (tenant_id, external_id_enc)
         SELECT 'tnt_plan' || n, decode(repeat(md5(n::text), 3), 'hex') FROM generate_series(1, 5000) n;
       ANALYZE "${db.schema}".marketplace_connector`,
    );
    const { statement } = connectorRows(db.orm, db.schema);
    // Batches of 1 to 4 ids, as the coalescer sends them under a light load.
    const batches = Array.from({ length: 20 }, (_, n) =>
      Array.from({ length: (n % 4) + 1 }, (_, i) => `tnt_plan${n * 4 + i + 1}`),
    );
    for (const ids of batches) {
      const rows = await preparedRead(db.orm.em, statement, [idList(ids)]);
      assert.equal(rows.length, ids.length);
    }
    const plans = await planCounts(
      db.orm,
      statement.text,
      batches.map((ids) => [idList(ids)]),
    );
    // Five plans for the values, then the generic one kept; with ANY($1::text[]), 20 custom plans.
    assert.deepEqual(plans, { generic: 15, custom: 5 });
    const nodes = await planNodes(db.orm, statement.text, [idList(["tnt_plan1", "tnt_plan2"])], "force_generic_plan");
    assert.doesNotMatch(nodes.join(" > "), /Seq Scan/);
  });
});
