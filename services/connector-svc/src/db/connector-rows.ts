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

/** Per schema (tests run many), named so each pooled connection plans it once (see prepared-read.ts). */
const byTenant = new Map<string, PreparedStatement>();
const statementFor = (schema: string): PreparedStatement => {
  let s = byTenant.get(schema);
  if (!s) {
    s = {
      name: `connector_by_tenant_${schema}`,
      text: `SELECT ${COLUMNS} FROM "${schema}".marketplace_connector WHERE tenant_id = $1`,
    };
    byTenant.set(schema, s);
  }
  return s;
};

/** The row, or undefined before the first status read (and after a disconnect). */
export async function readConnector(
  em: EntityManager,
  schema: string,
  tenantId: string,
): Promise<ConnectorRow | undefined> {
  return (await preparedRead<ConnectorRow>(em, statementFor(schema), [tenantId]))[0];
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
