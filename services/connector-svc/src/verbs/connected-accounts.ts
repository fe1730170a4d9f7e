import type { ConnectedAccounts } from "@flowstate/contracts/internal/connector";
import type { ServiceContext } from "../context.ts";

/**
 * Every connected tenant's seller account, ids only, for partner-inbound's account → tenant map
 * (ADR 0003). Nothing secret: no role ARN, no external ID (it is never opened here).
 */
export async function connectedAccounts({ ctx }: { ctx: ServiceContext }): Promise<ConnectedAccounts> {
  const rows = await ctx.deps.orm.em.fork().execute<{ tenant_id: string; account_id: string }[]>(
    `SELECT tenant_id, account_id FROM "${ctx.deps.schema}".marketplace_connector
        WHERE connected_at IS NOT NULL AND account_id IS NOT NULL ORDER BY tenant_id`,
  );
  return { connectors: rows.map((r) => ({ tenant_id: r.tenant_id, account_id: r.account_id })) };
}
