import type { EntityManager } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../context.ts";

/**
 * DELETE (decisions.md): the connector and its external ID are discarded (the next read
 * generates a new one), ConnectorDisconnected is emitted in the same transaction when a role was
 * connected, and this process forgets the tenant's seller sessions and opened external ID.
 * Disconnecting what is not connected is a no-op (204 either way).
 */
export async function disconnect({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<void> {
  await removeConnector(ctx, tenantId);
}

/**
 * The shared part of disconnect and TenantSoftDeleted; `tx` is the consumer's transaction (the
 * processed-event record commits with the removal), otherwise the verb opens its own.
 */
export async function removeConnector(ctx: ServiceContext, tenantId: string, tx?: EntityManager): Promise<void> {
  const { deps } = ctx;
  const remove = async (em: EntityManager) => {
    const rows = await em.execute<{ role_arn: string | null }[]>(
      `DELETE FROM "${deps.schema}".marketplace_connector WHERE tenant_id = ? RETURNING role_arn`,
      [tenantId],
    );
    if (rows[0]?.role_arn) ctx.emit(em, "ConnectorDisconnected.v1", { tenant_id: tenantId }, { tenant_id: tenantId });
  };
  if (tx) await remove(tx);
  else await ctx.transaction(remove);
  deps.sessions.drop(tenantId);
  deps.vault.forget(tenantId);
  deps.health.forget(tenantId);
}
