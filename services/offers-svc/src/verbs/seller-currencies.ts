import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { Currency } from "@flowstate/contracts/rest/offers/common";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import type { ServiceContext } from "../context.ts";
import { isAccessDenied, mapUpstreamError } from "../marketplace/upstream-errors.ts";
import { CATALOG } from "./call-seller.ts";

const health = (tenantId: string) => `/v1/tenants/${tenantId}/integrations/marketplace/health`;

/**
 * The currencies the seller can be paid out in, from the Seller entity's disbursement
 * preferences (ListEntities finds the seller's id, DescribeEntity reads it). A role without the
 * `Seller` resource (the policy before 2026-08-31) is refused DescribeEntity: that is not an error
 * of this call but an answer, `determined: false`, naming the reason and the health endpoint.
 * Only the currencies private offers accept are listed.
 */
export async function getSellerCurrencies({ ctx }: { ctx: ServiceContext }): Promise<SellerCurrencies> {
  const cached = ctx.deps.currencies.get(ctx.tenantId, ctx.principal);
  if (cached) return cached;
  let answer: SellerCurrencies;
  try {
    const seller = await ctx.deps.sellers.withClients(ctx.tenantId, ctx.principal, async ({ catalog }) => {
      const sellers = await catalog.send(new ListEntitiesCommand({ Catalog: CATALOG, EntityType: "Seller" }));
      const sellerId = sellers.EntitySummaryList?.[0]?.EntityId;
      if (!sellerId) throw new Error("the seller account lists no Seller entity");
      return catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: sellerId }));
    });
    const listed = (seller.DetailsDocument as { PayoutCurrencies?: unknown } | undefined)?.PayoutCurrencies;
    const currencies = (Array.isArray(listed) ? listed : []).filter((c) => Currency.safeParse(c).success);
    answer = { determined: true, currencies: currencies as Currency[] };
  } catch (err) {
    // Refused AssumeRole is the connector's problem, not the legacy policy's: that stays an error.
    if (!isAccessDenied(err) || err instanceof AssumeRoleFailed) throw mapUpstreamError(err, "seller", ctx);
    ctx.logger.info({ tenant_id: ctx.tenantId, upstream_error: (err as Error).name }, "seller currencies undetermined");
    answer = {
      determined: false,
      currencies: [],
      reason_code: "CONNECTOR_POLICY_OUTDATED",
      reason:
        "The connector role's policy predates 2026-08-31 and cannot read the seller's disbursement preferences; update the connector stack (the health check names the fix for your onboarding path).",
      health: health(ctx.tenantId),
    };
  }
  ctx.deps.currencies.set(ctx.tenantId, ctx.principal, answer);
  return answer;
}
