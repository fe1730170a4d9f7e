import { connectorNotConnected } from "@flowstate/shared/marketplace/connector-problems";
import type { SellerConnector } from "@flowstate/shared/marketplace/seller-sessions";
import type { ServiceContext } from "../context.ts";

export interface ConnectedTenant {
  connector: SellerConnector;
  accountId: string;
  connectedAt: Date;
}

/** The tenant's connected role with its opened external ID, or null when it is not connected. */
export async function findConnected(ctx: ServiceContext, tenantId: string): Promise<ConnectedTenant | null> {
  const row = await ctx.deps.rows.read(tenantId);
  if (!row?.role_arn || !row.account_id || !row.connected_at) return null;
  const externalId = await ctx.deps.vault.open(tenantId, row.external_id_enc);
  return {
    connector: { tenantId, roleArn: row.role_arn, externalId },
    accountId: row.account_id,
    connectedAt: new Date(row.connected_at),
  };
}

/** findConnected, or 409 CONNECTOR_NOT_CONNECTED. */
export async function requireConnected(ctx: ServiceContext, tenantId: string): Promise<ConnectedTenant> {
  const found = await findConnected(ctx, tenantId);
  if (!found) throw connectorNotConnected();
  return found;
}
