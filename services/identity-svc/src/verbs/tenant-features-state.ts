import type { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";
import { readFlags } from "./get-features.ts";

/**
 * The gateway's feature check for routes that declare a `feature`: the flags of an active tenant,
 * or 404 when it is missing or deleted. No caller membership here: the gateway has checked it.
 */
export async function tenantFeaturesState({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<FeatureFlags> {
  const rows = await ctx.em.execute<{ id: string }[]>(
    `SELECT id FROM ${table(ctx, "tenant")} WHERE id = ? AND status = 'active'`,
    [tenantId],
  );
  if (!rows[0]) throw notFound("tenant");
  return readFlags(ctx, tenantId);
}
