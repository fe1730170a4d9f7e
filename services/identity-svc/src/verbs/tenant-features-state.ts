import type { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { readFlags } from "./get-features.ts";

/**
 * The gateway's feature check for routes that declare a `feature`: the flags of an active tenant,
 * or 404 when it is missing or deleted (one statement answers both). No caller membership here:
 * the gateway has checked it.
 */
export async function tenantFeaturesState({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<FeatureFlags> {
  const flags = await readFlags(ctx, tenantId);
  if (!flags) throw notFound("tenant");
  return flags;
}
