import { FEATURE_DEFAULTS, type FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import type { ServiceContext } from "../context.ts";
import { tenantList } from "./lib/tenant-list.ts";

/** Stored values over the defaults; unknown stored flags are ignored. */
export function toFlags(rows: readonly { flag: string; enabled: boolean }[]): FeatureFlags {
  const out = { ...FEATURE_DEFAULTS };
  for (const row of rows) if (row.flag in out) out[row.flag as keyof FeatureFlags] = row.enabled;
  return out;
}

/** The tenant's flags for a read (a service's internal one, access decided by its route): a grouped prepared read, no entities. */
export async function readFlags(ctx: ServiceContext, tenantId: string): Promise<FeatureFlags> {
  const em = ctx.existingEm();
  const lists = ctx.deps.tenantReads.flags;
  return toFlags(em?.isInTransaction() ? await lists.inTransaction(em, tenantId) : await lists.load(tenantId));
}

/** Any member, or an API key of the tenant (other services read `marketplace_offers` through the gateway). */
export async function getFeatures({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<FeatureFlags> {
  return toFlags(await tenantList(ctx, ctx.deps.tenantReads.flags, tenantId, { minRole: "member", apiKey: "read" }));
}
