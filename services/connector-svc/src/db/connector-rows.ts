import { type CoalescedRead, coalescedRead } from "@flowstate/shared/db/coalesced-read";
import { type PreparedStatement, preparedRead } from "@flowstate/shared/db/prepared-read";
import type { EntityManager } from "@mikro-orm/postgresql";

/** A tenant's connector row as the verbs use it; `external_id_enc` is still sealed. */
export interface ConnectorRow {
  tenant_id: string;
  external_id_enc: Buffer;
  role_arn: string | null;
  account_id: string | null;
  connected_at: Date | null;
}

const COLUMNS = "tenant_id, external_id_enc, role_arn, account_id, connected_at";

/**
 * One reader per schema (tests run many): a named statement over `ANY($1)`, so each pooled
 * connection plans it once (prepared-read.ts), and concurrent reads share statements once every
 * connection is busy (coalesced-read.ts): the status read is the hot path (issue 8's bench: at
 * least 80% of GET /v1/tenants/{id}, which does the same).
 */
const readers = new Map<string, CoalescedRead<string, ConnectorRow>>();
const readerFor = (em: EntityManager, schema: string): CoalescedRead<string, ConnectorRow> => {
  let reader = readers.get(schema);
  if (!reader) {
    const statement: PreparedStatement = {
      name: `connector_by_tenants_${schema}`,
      text: `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = ANY($1::text[])`,
    };
    reader = coalescedRead<string, ConnectorRow>({
      maxInFlight: 2,
      maxBatch: 64,
      run: async (ids) => {
        const rows = await preparedRead<ConnectorRow>(em, statement, [ids]);
        const byId = new Map(rows.map((r) => [r.tenant_id, r]));
        return ids.map((id) => byId.get(id));
      },
    });
    readers.set(schema, reader);
  }
  return reader;
};

/** The row, or undefined before the first status read (and after a disconnect). */
export async function readConnector(
  em: EntityManager,
  schema: string,
  tenantId: string,
): Promise<ConnectorRow | undefined> {
  // Inside a transaction the read must see the transaction's own writes: its own connection.
  if (em.isInTransaction()) {
    const rows = await em.execute<ConnectorRow[]>(
      `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = ?`,
      [tenantId],
    );
    return rows[0];
  }
  return readerFor(em, schema).load(tenantId);
}

/** The row locked for the rest of the caller's transaction (connect and disconnect serialise on it). */
export async function lockConnector(
  em: EntityManager,
  schema: string,
  tenantId: string,
): Promise<ConnectorRow | undefined> {
  const rows = await em.execute<ConnectorRow[]>(
    `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = ? FOR UPDATE`,
    [tenantId],
  );
  return rows[0];
}

/**
 * Inserts the first external ID unless another request did first; either way returns the row
 * that won. Concurrent first reads (any number of processes) end with one value: the losers'
 * INSERT waits on the winner's unique key, then finds its row.
 */
export async function insertFirstExternalId(
  em: EntityManager,
  schema: string,
  tenantId: string,
  sealed: Uint8Array,
): Promise<ConnectorRow> {
  await em.execute(
    `INSERT INTO "${schema}".marketplace_connector (tenant_id, external_id_enc) VALUES (?, ?) ON CONFLICT (tenant_id) DO NOTHING`,
    [tenantId, Buffer.from(sealed)],
    "run",
  );
  const row = await readConnector(em, schema, tenantId);
  if (!row) throw new Error("the connector row vanished right after its insert");
  return row;
}
