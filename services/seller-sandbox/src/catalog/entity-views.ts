import { marketplaceArn } from "../http/authorize.ts";
import { endOfDay, isoSeconds } from "../seller/clock.ts";
import type { Offer, Product, SellerState } from "../seller/types.ts";

/** Targeting names as OfferSummary.Targeting lists them. */
export function offerTargeting(o: Offer): string[] {
  const t: string[] = [];
  if (o.buyerAccounts.length) t.push("BuyerAccounts");
  if (o.countryCodes?.length) t.push("CountryCodes");
  return t.length ? t : ["None"];
}

export function productSummary(account: string, p: Product) {
  return {
    Name: p.title,
    EntityType: "SaaSProduct",
    EntityId: p.id,
    EntityArn: marketplaceArn(account, "SaaSProduct", p.id),
    LastModifiedDate: isoSeconds(p.lastModified),
    Visibility: p.visibility,
    SaaSProductSummary: { ProductTitle: p.title, Visibility: p.visibility },
  };
}

// Offers are replaced, never mutated, when a change set commits, so a summary can be cached per
// offer object; the listing is the sandbox's hot path.
const summaries = new WeakMap<Offer, ReturnType<typeof buildOfferSummary>>();

export function offerSummary(account: string, o: Offer) {
  let s = summaries.get(o);
  if (!s) {
    s = buildOfferSummary(account, o);
    summaries.set(o, s);
  }
  return s;
}

function buildOfferSummary(account: string, o: Offer) {
  return {
    ...(o.name ? { Name: o.name } : {}),
    EntityType: "Offer",
    EntityId: o.id,
    EntityArn: marketplaceArn(account, "Offer", o.id),
    LastModifiedDate: isoSeconds(o.lastModified),
    Visibility: o.buyerAccounts.length ? "Private" : "Public",
    OfferSummary: {
      ...(o.name ? { Name: o.name } : {}),
      ProductId: o.productId,
      ...(o.releaseDate !== undefined ? { ReleaseDate: isoSeconds(o.releaseDate) } : {}),
      ...(o.availabilityEndDate ? { AvailabilityEndDate: isoSeconds(endOfDay(o.availabilityEndDate)) } : {}),
      ...(o.resaleAuthorizationId ? { ResaleAuthorizationId: o.resaleAuthorizationId } : {}),
      BuyerAccounts: o.buyerAccounts,
      State: o.state,
      Targeting: offerTargeting(o),
      ...(o.offerSetId ? { OfferSetId: o.offerSetId } : {}),
      ...(o.targetAgreementId ? { TargetAgreementId: o.targetAgreementId } : {}),
      ...(o.targetAgreementIntent ? { TargetAgreementIntent: o.targetAgreementIntent } : {}),
      CreatedBySource: o.createdBySource,
    },
  };
}

export function sellerSummary(seller: SellerState) {
  return {
    Name: seller.sellerName,
    EntityType: "Seller",
    EntityId: seller.sellerId,
    EntityArn: marketplaceArn(seller.account, "Seller", seller.sellerId),
    LastModifiedDate: isoSeconds(seller.sellerLastModified),
    Visibility: "Public",
  };
}

/**
 * Offer@1.0 DetailsDocument (shape of AWS's OfferEntityDetail: Id, Name, Description, ProductId,
 * State, MarkupPercentage, PreExistingAgreement, OfferSetId, ResaleAuthorizationId, Terms, Rules).
 * There is no PricingModel member: the model an offer was priced with is only visible through its
 * pricing terms' types.
 */
export function offerDetails(o: Offer) {
  const rules: Record<string, unknown>[] = [];
  if (o.availabilityEndDate) {
    rules.push({
      Type: "AvailabilityRule",
      AvailabilityEndDate: new Date(endOfDay(o.availabilityEndDate)).toISOString(),
    });
  }
  if (o.buyerAccounts.length || o.countryCodes?.length) {
    rules.push({
      Type: "TargetingRule",
      PositiveTargeting: {
        ...(o.buyerAccounts.length ? { BuyerAccounts: o.buyerAccounts } : {}),
        ...(o.countryCodes?.length ? { CountryCodes: o.countryCodes } : {}),
      },
    });
  }
  return {
    Id: o.id,
    ...(o.name !== undefined ? { Name: o.name } : {}),
    ...(o.description !== undefined ? { Description: o.description } : {}),
    ProductId: o.productId,
    State: o.state,
    ...(o.preExistingAgreement ? { PreExistingAgreement: o.preExistingAgreement } : {}),
    ...(o.offerSetId ? { OfferSetId: o.offerSetId } : {}),
    ...(o.resaleAuthorizationId ? { ResaleAuthorizationId: o.resaleAuthorizationId } : {}),
    Terms: o.terms,
    Rules: rules,
  };
}

/** SaaSProduct@1.0 DetailsDocument, the parts a private-offer tool reads. */
export function productDetails(p: Product) {
  return {
    Description: {
      ProductTitle: p.title,
      ShortDescription: p.shortDescription,
      LongDescription: p.longDescription,
      Visibility: p.visibility,
      Highlights: [],
      SearchKeywords: [],
      Categories: ["Operations Management"],
    },
    Dimensions: p.dimensions,
    PromotionalResources: {},
    SupportInformation: { Description: "support@example.com" },
  };
}

/**
 * Seller DetailsDocument. AWS publishes no shape for it (the DescribeEntity model types it as an
 * opaque document; reference §3): the sandbox answers the seller's identity only, and nothing a
 * client could mistake for the disbursement preferences, which no documented API returns. Those
 * stay the account's portal settings (`PUT /_sandbox/accounts/<id>/payout-currencies`), which
 * decide INCOMPATIBLE_PAYMENT_SETTINGS when a change set applies, as on AWS.
 */
export function sellerDetails(seller: SellerState) {
  return {
    Id: seller.sellerId,
    AccountId: seller.account,
    Name: seller.sellerName,
  };
}
