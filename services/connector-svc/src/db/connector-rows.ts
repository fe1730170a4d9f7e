import { type CoalescedRead, coalescedRead } from "@flowstate/shared/db/coalesced-read";
import type { Database } from "@flowstate/shared/db/open-database";
import { idList, type PreparedStatement, preparedRead } from "@flowstate/shared/db/prepared-read";
import type { EntityManager } from "@mikro-orm/postgresql";

/** A tenant's connector row as the verbs use it; `external_id_enc` is still sealed. */
export interface ConnectorRow {
  tenant_id: string;
  external_id_enc: Buffer;
  /** SHA-256 of the plaintext ID (unique across tenants); null on rows from before migration 0003 until filled. */
  external_id_digest: Buffer | null;
  role_arn: string | null;
  account_id: string | null;
  connected_at: Date | null;
}

const COLUMNS = "tenant_id, external_id_enc, external_id_digest, role_arn, account_id, connected_at";

/** The connector table's reads and writes, bound to one ORM (see `connectorRows`). */
export interface ConnectorRows {
  /** The status read's grouped statement: `$1` the tenant ids, one `idList`. */
  statement: PreparedStatement;
  /**
   * The row, or undefined before the first status read (and after a disconnect). Pass `em` when
   * the read is part of a transaction: it must then see the transaction's own writes.
   */
  read(tenantId: string, em?: EntityManager): Promise<ConnectorRow | undefined>;
  /** The row locked for the rest of `em`'s transaction (connect and disconnect serialise on it). */
  lock(em: EntityManager, tenantId: string): Promise<ConnectorRow | undefined>;
  /**
   * Inserts the first external ID unless another request did first; either way returns the row
   * that won. Concurrent first reads (any number of processes) end with one value: the losers'
   * INSERT waits on the winner's unique key, then finds its row.
   */
  insertFirstExternalId(em: EntityManager, tenantId: string, sealed: Uint8Array, digest: Buffer): Promise<ConnectorRow>;
  /** Gives a row from before migration 0003 its digest (once: only where it is still missing). */
  fillDigest(tenantId: string, sealed: Buffer, digest: Buffer): Promise<void>;
}

/**
 * The connector rows of one ORM, built once with the service's deps (deps-factory.ts), never at
 * module level: the hot status read is a named statement over a JSON list of ids on this ORM's own
 * pool, so each pooled connection keeps one plan of it (prepared-read.ts `idList`; with `ANY($1::text[])`
 * every execution was planned again), and concurrent reads share statements
 * once every connection is busy (coalesced-read.ts). The status read is the hot path: its target
 * is at least 80% of the rate of GET /v1/tenants/{id}, a read of the same size (README, measured
 * with `npm run bench -- 50-connector`).
 *
 * @example
 * const rows = connectorRows(orm, schemaOf(orm));
 * const row = await rows.read("tnt_…");
 */
export function connectorRows(orm: Database, schema: string): ConnectorRows {
  const statement: PreparedStatement = {
    name: `connector_by_tenants_${schema}`,
    text: `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector
            WHERE tenant_id = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))`,
  };
  const reader: CoalescedRead<string, ConnectorRow> = coalescedRead<string, ConnectorRow>({
    maxInFlight: 2,
    maxBatch: 64,
    run: async (ids) => {
      const rows = await preparedRead<ConnectorRow>(orm.em, statement, [idList(ids)]);
      const byId = new Map(rows.map((r) => [r.tenant_id, r]));
      return ids.map((id) => byId.get(id));
    },
  });
  const read = async (tenantId: string, em?: EntityManager): Promise<ConnectorRow | undefined> => {
    if (em?.isInTransaction()) {
      const rows = await em.execute<ConnectorRow[]>(
        `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = ?`,
        [tenantId],
      );
      return rows[0];
    }
    return reader.load(tenantId);
  };
  return {
    statement,
    read,
    async lock(em, tenantId) {
      const rows = await em.execute<ConnectorRow[]>(
        `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = ? FOR UPDATE`,
        [tenantId],
      );
      return rows[0];
    },
    async insertFirstExternalId(em, tenantId, sealed, digest) {
      // Only the tenant's own conflict is the expected race; a digest another tenant holds is a
      // duplicate ID, which the unique index refuses with an error.
      await em.execute(
        `INSERT INTO "${schema}".marketplace_connector (tenant_id, external_id_enc, external_id_digest) VALUES (?, ?, ?)
           ON CONFLICT (tenant_id) DO NOTHING`,
        [tenantId, Buffer.from(sealed), digest],
        "run",
      );
      const row = await read(tenantId, em);
      if (!row) throw new Error("the connector row vanished right after its insert");
      return row;
    },
    async fillDigest(tenantId, sealed, digest) {
      // Keyed on the ciphertext too: a disconnect and a new ID meanwhile leave the new row alone.
      await orm.em.fork().execute(
        `UPDATE "${schema}".marketplace_connector SET external_id_digest = ?
            WHERE tenant_id = ? AND external_id_enc = ? AND external_id_digest IS NULL`,
        [digest, tenantId, sealed],
        "run",
      );
    },
  };
}
