import { DescribeEntityCommand } from "@aws-sdk/client-marketplace-catalog";
import type { CurrencyNotChecked } from "@flowstate/contracts/rest/offers/currencies";
import type { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { CATALOG, callSeller, fieldErrors } from "./call-seller.ts";
import { getSellerCurrencies } from "./seller-currencies.ts";

type Issue = { path: (string | number)[]; message: string };

/** The product's dimension keys, or undefined when the id is not a SaaS product of this seller. */
async function productDimensions(ctx: ServiceContext, productId: string): Promise<string[] | undefined> {
  try {
    const out = await callSeller(ctx, "product", ({ catalog }) =>
      catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: productId })),
    );
    if (!out.EntityType?.startsWith("SaaSProduct@")) return undefined;
    const dims = (out.DetailsDocument as { Dimensions?: { Key?: unknown }[] } | undefined)?.Dimensions ?? [];
    return dims.map((d) => d.Key).filter((k): k is string => typeof k === "string");
  } catch (err) {
    if (err instanceof DomainError && err.code === "NOT_FOUND") return undefined;
    throw err;
  }
}

/**
 * What can only be checked against the seller's account, before anything is submitted: the
 * product exists and has the dimensions the pricing names (400 with field errors). The currency
 * cannot be checked (seller-currencies.ts says why): the interface keeps create and clone working
 * (sections 7 and 9), so AWS decides when it applies the change set, and the reason is returned
 * for the answer to say so.
 */
export async function checkOfferAgainstSeller(
  ctx: ServiceContext,
  offer: Pick<CreateOfferRequest, "product_id" | "pricing">,
): Promise<CurrencyNotChecked> {
  const [dimensions, currencies] = await Promise.all([
    productDimensions(ctx, offer.product_id),
    getSellerCurrencies({ ctx }),
  ]);
  const issues: Issue[] = [];
  if (!dimensions)
    issues.push({ path: ["product_id"], message: "no SaaS product with this id in the seller's account" });
  else {
    const keys =
      offer.pricing.model === "contract"
        ? offer.pricing.dimensions.map((d) => d.key)
        : offer.pricing.rates.map((r) => r.dimension_key);
    const field = offer.pricing.model === "contract" ? ["dimensions", "key"] : ["rates", "dimension_key"];
    keys.forEach((key, i) => {
      if (!dimensions.includes(key))
        issues.push({
          path: ["pricing", field[0] as string, i, field[1] as string],
          message: `the product has no dimension ${key} (it has ${dimensions.join(", ") || "none"})`,
        });
    });
  }
  if (issues.length) throw fieldErrors(issues);
  const { reason_code, reason, health } = currencies;
  return { reason_code, reason, health };
}
