import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { afterAll, beforeAll, describe, it } from "vitest";
import { externalIdDigest } from "../secrets/external-id-vault.ts";
import { connectorRows } from "./connector-rows.ts";
import { entities } from "./entities.ts";
import { migrations } from "./migrations.ts";

/**
 * §7 check 27: external IDs unique across tenants as a constraint of the database. The ID itself is
 * stored only as KMS ciphertext, on which no index can hold; its SHA-256 is unique (migration 0003).
 */
describe("external IDs unique across tenants (the database's rule)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "conn_extid", entities, migrations });
  });
  afterAll(() => db.close());

  const tenant = () => `tnt_${randomBytes(12).toString("hex")}`;
  const sealed = () => randomBytes(48);
  const digestOf = async (tenantId: string) =>
    (
      await db.orm.em
        .fork()
        .execute<{ external_id_digest: Buffer | null }[]>(
          `SELECT external_id_digest FROM "${db.schema}".marketplace_connector WHERE tenant_id = ?`,
          [tenantId],
        )
    )[0]?.external_id_digest;

  it("refuses a second tenant with the same external ID, while the same tenant's racing first reads still end with one row", async () => {
    const rows = connectorRows(db.orm, db.schema);
    const digest = externalIdDigest(randomUUID());
    const [a, b] = [tenant(), tenant()];
    const first = await rows.insertFirstExternalId(db.orm.em.fork(), a, sealed(), digest);
    assert.deepEqual(first.external_id_digest, digest);

    await assert.rejects(
      rows.insertFirstExternalId(db.orm.em.fork(), b, sealed(), digest),
      (err: { code?: string }) => err.code === "23505",
      "the unique index refuses B",
    );
    assert.equal(await rows.read(b), undefined, "B has no row");

    // A's own concurrent first read (another ID generated meanwhile) finds A's row, as before.
    const again = await rows.insertFirstExternalId(db.orm.em.fork(), a, sealed(), externalIdDigest(randomUUID()));
    assert.deepEqual(again.external_id_enc, first.external_id_enc);
    assert.deepEqual(await digestOf(a), digest);
  });

  it("gives a row from before the digest its own once, and never overwrites one", async () => {
    const rows = connectorRows(db.orm, db.schema);
    const legacy = tenant();
    const ciphertext = sealed();
    await db.orm.em
      .fork()
      .execute(`INSERT INTO "${db.schema}".marketplace_connector (tenant_id, external_id_enc) VALUES (?, ?)`, [
        legacy,
        ciphertext,
      ]);
    assert.equal(await digestOf(legacy), null);
    const digest = externalIdDigest(randomUUID());
    await rows.fillDigest(legacy, ciphertext, digest);
    assert.deepEqual(await digestOf(legacy), digest);
    await rows.fillDigest(legacy, ciphertext, externalIdDigest(randomUUID()));
    assert.deepEqual(await digestOf(legacy), digest, "filled once");

    // A legacy row whose ID another tenant already holds is refused too.
    const copy = tenant();
    await db.orm.em
      .fork()
      .execute(`INSERT INTO "${db.schema}".marketplace_connector (tenant_id, external_id_enc) VALUES (?, ?)`, [
        copy,
        ciphertext,
      ]);
    await assert.rejects(rows.fillDigest(copy, ciphertext, digest), (err: { code?: string }) => err.code === "23505");
  });
});
