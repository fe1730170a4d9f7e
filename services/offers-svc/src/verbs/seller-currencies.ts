import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { NOT_DOCUMENTED_BY_AWS_REASON, type SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import type { ServiceContext } from "../context.ts";
import { isAccessDenied, mapUpstreamError } from "../marketplace/upstream-errors.ts";
import { CATALOG } from "./call-seller.ts";

const health = (tenantId: string) => `/v1/tenants/${tenantId}/integrations/marketplace/health`;

/**
 * The currencies the seller can be paid out in, as far as AWS lets anyone know: not at all. The
 * Seller entity is read (ListEntities finds its id, DescribeEntity reads it) only to tell the two
 * reasons apart. DescribeEntity documents EntityType, EntityIdentifier, EntityArn and
 * LastModifiedDate, and a DetailsDocument without a published shape for a Seller (the models in
 * shared/reference/aws-models; marketplace-api.md §3): whatever it holds is not relied on, so a
 * readable seller is `NOT_DOCUMENTED_BY_AWS`. A role without the `Seller` resource (the policy
 * before 2026-08-31) is refused DescribeEntity: `CONNECTOR_POLICY_OUTDATED`, whose fix the health
 * endpoint names. Neither is an error of this call: both answer `determined: false`.
 */
export async function getSellerCurrencies({ ctx }: { ctx: ServiceContext }): Promise<SellerCurrencies> {
  const cached = ctx.deps.currencies.get(ctx.tenantId, ctx.principal);
  if (cached) return cached;
  let answer: SellerCurrencies;
  try {
    await ctx.deps.sellers.withClients(ctx.tenantId, ctx.principal, async ({ catalog }) => {
      const sellers = await catalog.send(new ListEntitiesCommand({ Catalog: CATALOG, EntityType: "Seller" }));
      const sellerId = sellers.EntitySummaryList?.[0]?.EntityId;
      if (!sellerId) throw new Error("the seller account lists no Seller entity");
      return catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: sellerId }));
    });
    answer = undetermined(ctx, "NOT_DOCUMENTED_BY_AWS", NOT_DOCUMENTED_BY_AWS_REASON);
  } catch (err) {
    // Refused AssumeRole is the connector's problem, not the legacy policy's: that stays an error.
    if (!isAccessDenied(err) || err instanceof AssumeRoleFailed) throw mapUpstreamError(err, "seller", ctx);
    ctx.logger.info({ tenant_id: ctx.tenantId, upstream_error: (err as Error).name }, "seller entity not readable");
    answer = undetermined(
      ctx,
      "CONNECTOR_POLICY_OUTDATED",
      "The connector role's policy predates 2026-08-31 and cannot read the seller's account profile; update the connector stack (the health check names the fix for your onboarding path).",
    );
  }
  ctx.deps.currencies.set(ctx.tenantId, ctx.principal, answer);
  return answer;
}

const undetermined = (
  ctx: ServiceContext,
  reason_code: SellerCurrencies["reason_code"],
  reason: string,
): SellerCurrencies => ({ determined: false, currencies: [], reason_code, reason, health: health(ctx.tenantId) });
