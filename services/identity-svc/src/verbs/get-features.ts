import { FEATURE_DEFAULTS, type FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import type { ServiceContext } from "../context.ts";
import { tenantList } from "./lib/tenant-list.ts";

/** Stored values over the defaults; unknown stored flags are ignored. */
export function toFlags(rows: readonly { flag: string; enabled: boolean }[]): FeatureFlags {
  const out = { ...FEATURE_DEFAULTS };
  for (const row of rows) if (row.flag in out) out[row.flag as keyof FeatureFlags] = row.enabled;
  return out;
}

/**
 * An active tenant's flags for a service's internal read (access decided by its route), or null
 * when no active tenant has the id: one grouped statement, no entities.
 */
export async function readFlags(ctx: ServiceContext, tenantId: string): Promise<FeatureFlags | null> {
  const em = ctx.existingEm();
  const lists = ctx.deps.tenantReads.flags;
  const read = em?.isInTransaction() ? await lists.inTransaction(em, null, tenantId) : await lists.load(null, tenantId);
  return read && toFlags(read.rows);
}

/** Any member, or an API key of the tenant (other services read `marketplace_offers` through the gateway). */
export async function getFeatures({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<FeatureFlags> {
  return toFlags(await tenantList(ctx, ctx.deps.tenantReads.flags, tenantId, { minRole: "member", apiKey: "read" }));
}
