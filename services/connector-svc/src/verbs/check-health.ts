import type { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import type { ServiceContext } from "../context.ts";
import { probeHealth } from "../health/probe.ts";
import { requireConnected } from "./connected.ts";
import { noteAttention } from "./note-attention.ts";

/**
 * GET health (decisions.md): the connected tenant's report, reused for HEALTH_CACHE_SECONDS; a
 * change of what needs the seller's attention is announced (note-attention.ts).
 */
export async function checkHealth({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<HealthReport> {
  const { connector } = await requireConnected(ctx, tenantId);
  const report = await ctx.deps.health.get(tenantId, connector.roleArn, () => probeHealth(ctx.deps, connector));
  await noteAttention(ctx, tenantId, report);
  return report;
}
