import { FEATURE_DEFAULTS, type FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../context.ts";
import { FeatureFlag } from "../db/entities.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";

/** The tenant's flags: stored values over the defaults; unknown stored flags are ignored. */
export async function flagsOf(em: EntityManager, tenantId: string): Promise<FeatureFlags> {
  const out = { ...FEATURE_DEFAULTS };
  for (const row of await em.find(FeatureFlag, { tenant_id: tenantId })) {
    if (row.flag in out) out[row.flag as keyof FeatureFlags] = row.enabled;
  }
  return out;
}

/** Any member, or an API key of the tenant (other services read `marketplace_offers` through the gateway). */
export async function getFeatures({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<FeatureFlags> {
  await checkTenantAccess(ctx, ctx.existingEm(), tenantId, { minRole: "member", apiKey: "read" });
  return flagsOf(ctx.em, tenantId);
}
