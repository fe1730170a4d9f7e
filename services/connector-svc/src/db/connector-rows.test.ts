import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
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
});
