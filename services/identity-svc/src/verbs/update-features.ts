import type { FeatureFlags, UpdateFeatureFlagsRequest } from "@flowstate/contracts/rest/identity/tenants";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { FeatureFlag } from "../db/entities.ts";
import { toFlags } from "./get-features.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";

/**
 * Sets the given flags (admin or owner); one FeatureFlagChanged per flag that actually changed
 * (other gateway instances drop their cached flags on it).
 */
export async function updateFeatures({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: UpdateFeatureFlagsRequest;
}): Promise<FeatureFlags> {
  return inTransaction(ctx, async (em) => {
    const { sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    // The stored rows once, as entities: a change updates its row in place, a new flag creates one.
    const rows = await em.find(FeatureFlag, { tenant_id: tenantId });
    const current = toFlags(rows);
    const at = now(ctx);
    let changed = false;
    for (const [flag, enabled] of Object.entries(input) as [keyof FeatureFlags, boolean][]) {
      if (current[flag] === enabled) continue;
      const row = rows.find((r) => r.flag === flag);
      if (row) Object.assign(row, { enabled, updated_at: at, updated_by: sub });
      else em.create(FeatureFlag, { tenant_id: tenantId, flag, enabled, updated_at: at, updated_by: sub });
      current[flag] = enabled;
      changed = true;
      emit(
        ctx,
        em,
        "FeatureFlagChanged.v1",
        { tenant_id: tenantId, flag, enabled },
        { tenant_id: tenantId, subject: null },
      );
    }
    // Gateways cache flags for routes that declare a `feature`: they drop this tenant's before relaying.
    if (changed) ctx.invalidations.push({ scope: "features", tenant_id: tenantId });
    return current;
  });
}
