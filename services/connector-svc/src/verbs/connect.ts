import type { ConnectRequest, ConnectResponse } from "@flowstate/contracts/rest/connector/marketplace";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { actingSub, emit, type ServiceContext } from "../context.ts";
import { lockConnector } from "../db/connector-rows.ts";
import { ensureExternalId } from "./external-id.ts";
import { requireTenant } from "./tenant-guard.ts";
import { verifyRole } from "./verify-role.ts";

/**
 * POST connect (interface.md §3): verify the role with the tenant's external ID (verify-role.ts),
 * then store the connector and emit ConnectorConnected in one transaction. A reconnect keeps the
 * external ID. A disconnect that committed while AWS was being asked voids the verification (it
 * used the discarded external ID): 409 CONNECTOR_CHANGED.
 */
export async function connect({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: ConnectRequest;
}): Promise<ConnectResponse> {
  requireTenant(ctx, tenantId, "admin", "write");
  const { row, externalId } = await ensureExternalId(ctx, tenantId);
  const { accountId } = await verifyRole(ctx, { tenantId, roleArn: input.role_arn, externalId });
  const { schema } = ctx.deps;
  await ctx.deps.orm.em.fork().transactional(async (em) => {
    const current = await lockConnector(em, schema, tenantId);
    if (!current?.external_id_enc.equals(row.external_id_enc)) {
      throw new DomainError(
        "conflict",
        "CONNECTOR_CHANGED",
        "the connector was disconnected while it was being verified; read the status again and retry",
      );
    }
    await em.execute(
      `UPDATE "${schema}".marketplace_connector
          SET role_arn = ?, account_id = ?, connected_at = now(), connected_by = ?
        WHERE tenant_id = ?`,
      [input.role_arn, accountId, actingSub(ctx), tenantId],
    );
    emit(ctx, em, "ConnectorConnected.v1", { tenant_id: tenantId, account_id: accountId }, tenantId);
  });
  ctx.deps.health.forget(tenantId);
  ctx.logger.info({ tenant_id: tenantId, account_id: accountId }, "marketplace connector connected");
  return { status: "connected", account_id: accountId };
}
