import type { ServiceContext } from "../context.ts";
import type { ConnectorRow } from "../db/connector-rows.ts";
import { externalIdDigest } from "../secrets/external-id-vault.ts";

export interface TenantConnector {
  row: ConnectorRow;
  externalId: string;
}

/**
 * The tenant's connector row and its opened external ID, creating both on the first read
 * (interface.md §3). Concurrent first reads in this process share one KMS call and one insert;
 * across processes the insert decides (see ConnectorRows.insertFirstExternalId), so every caller sees one value.
 */
export async function ensureExternalId(ctx: ServiceContext, tenantId: string): Promise<TenantConnector> {
  const { deps } = ctx;
  const row = await deps.rows.read(tenantId);
  if (row) {
    const externalId = await deps.vault.open(tenantId, row.external_id_enc);
    // A row from before the unique digest (migration 0003): filled once, then never again. Refused
    // only if another tenant holds the same ID, which must not stop this tenant's reads: logged.
    if (!row.external_id_digest)
      await deps.rows
        .fillDigest(tenantId, row.external_id_enc, externalIdDigest(externalId))
        .catch((err) => deps.logger.error({ err, tenant_id: tenantId }, "external ID digest not recorded"));
    return { row, externalId };
  }
  let first = deps.firstReads.get(tenantId);
  if (!first) {
    first = (async () => {
      const { externalId, sealed } = await deps.vault.generate(tenantId);
      const won = await deps.rows.insertFirstExternalId(
        deps.orm.em.fork(),
        tenantId,
        sealed,
        externalIdDigest(externalId),
      );
      return { externalId: await deps.vault.open(tenantId, won.external_id_enc), sealed: won.external_id_enc };
    })().finally(() => deps.firstReads.delete(tenantId));
    deps.firstReads.set(tenantId, first);
  }
  const { externalId } = await first;
  const created = await deps.rows.read(tenantId);
  // Disconnected in the very instant after the insert: the next read starts over.
  if (!created) return ensureExternalId(ctx, tenantId);
  return { row: created, externalId };
}
