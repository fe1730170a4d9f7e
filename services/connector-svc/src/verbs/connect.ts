import type { ConnectRequest, ConnectResponse } from "@flowstate/contracts/rest/connector/marketplace";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { UniqueConstraintViolationException } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../context.ts";
import { ensureExternalId } from "./external-id.ts";
import { verifyRole } from "./verify-role.ts";

/**
 * POST connect (interface.md §3): verify the role with the tenant's external ID (verify-role.ts),
 * then store the connector and emit ConnectorConnected in one transaction. A reconnect keeps the
 * external ID. A disconnect that committed while AWS was being asked voids the verification (it
 * used the discarded external ID): 409 CONNECTOR_CHANGED. A seller account connected to another
 * tenant: 409 SELLER_ACCOUNT_IN_USE (one tenant per seller account, so a partner event or a catalog
 * read for an account belongs to one tenant; migration 0002).
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
  const { row, externalId } = await ensureExternalId(ctx, tenantId);
  const { accountId } = await verifyRole(ctx, { tenantId, roleArn: input.role_arn, externalId });
  try {
    await store(ctx, tenantId, row.external_id_enc, input.role_arn, accountId);
  } catch (err) {
    // The unique index on account_id, not a read before the write: two tenants connecting the same
    // account at once cannot both pass it. The answer never names the tenant that holds it.
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    throw new DomainError(
      "conflict",
      "SELLER_ACCOUNT_IN_USE",
      `the seller account ${accountId} is already connected to another Flowstate tenant; disconnect it there first (Settings, Marketplace, Disconnect, by an admin of that tenant), then connect again`,
    );
  }
  ctx.deps.health.forget(tenantId);
  ctx.logger.info({ tenant_id: tenantId, account_id: accountId }, "marketplace connector connected");
  return { status: "connected", account_id: accountId };
}

async function store(ctx: ServiceContext, tenantId: string, sealed: Buffer, roleArn: string, accountId: string) {
  const { schema } = ctx.deps;
  await ctx.transaction(async (em) => {
    const current = await ctx.deps.rows.lock(em, tenantId);
    if (!current?.external_id_enc.equals(sealed)) {
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
      [roleArn, accountId, ctx.sub, tenantId],
    );
    ctx.emit(em, "ConnectorConnected.v1", { tenant_id: tenantId, account_id: accountId }, { tenant_id: tenantId });
  });
}
