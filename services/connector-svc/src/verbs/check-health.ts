import type { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import type { ServiceContext } from "../context.ts";
import { probeHealth } from "../health/probe.ts";
import { requireConnected } from "./connected.ts";

/** GET health (decisions.md): the connected tenant's report, reused for HEALTH_CACHE_SECONDS. */
export async function checkHealth({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<HealthReport> {
  const { connector } = await requireConnected(ctx, tenantId);
  return ctx.deps.health.get(tenantId, connector.roleArn, () => probeHealth(ctx.deps, connector));
}
