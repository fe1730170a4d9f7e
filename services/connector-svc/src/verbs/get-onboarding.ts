import type { OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import type { ServiceContext } from "../context.ts";
import { onboardingBundle } from "../onboarding/bundle.ts";
import { ensureExternalId } from "./external-id.ts";

/** GET onboarding: the bundle with the tenant's external ID (generated here if this is the first read). */
export async function getOnboarding({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<OnboardingBundle> {
  const { row, externalId } = await ensureExternalId(ctx, tenantId);
  return onboardingBundle(ctx.deps.settings, externalId, row.account_id ?? undefined);
}
