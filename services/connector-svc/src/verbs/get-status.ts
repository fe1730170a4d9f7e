import type { ConnectorStatus } from "@flowstate/contracts/rest/connector/marketplace";
import type { ServiceContext } from "../context.ts";
import { ensureExternalId } from "./external-id.ts";

/**
 * GET status (interface.md §2.1, §3): not connected → `{connected: false, external_id}`, the ID
 * generated on the first read; connected → decisions.md's connected body.
 */
export async function getStatus({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<ConnectorStatus> {
  const { row, externalId } = await ensureExternalId(ctx, tenantId);
  if (!row.role_arn || !row.account_id || !row.connected_at) return { connected: false, external_id: externalId };
  return {
    connected: true,
    status: "connected",
    role_arn: row.role_arn,
    account_id: row.account_id,
    external_id: externalId,
    connected_at: new Date(row.connected_at).toISOString(),
  };
}
