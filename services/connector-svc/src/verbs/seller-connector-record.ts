import type { SellerConnectorRecord } from "@flowstate/contracts/internal/connector";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { findConnected } from "./connected.ts";

/**
 * For offers-svc and mcp-gateway (their `service` identity, checked by the HTTP layer): what they
 * need to assume the tenant's role themselves, or 404 when the tenant is not connected.
 */
export async function sellerConnectorRecord({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<SellerConnectorRecord> {
  const found = await findConnected(ctx, tenantId);
  if (!found) throw notFound("connector");
  return {
    tenant_id: tenantId,
    role_arn: found.connector.roleArn,
    external_id: found.connector.externalId,
    account_id: found.accountId,
    connected_at: found.connectedAt.toISOString(),
  };
}
