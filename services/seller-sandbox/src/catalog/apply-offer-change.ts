import { endOfDay, isoDay } from "../seller/clock.ts";
import type { ChangeRecord, Offer, SellerState, Term } from "../seller/types.ts";
import type { OfferChangeDetails } from "./change-details.ts";
import { type ChangeError, currencyErrors, isPricingTerm, replaceTerms } from "./offer-terms.ts";
import { releaseErrors } from "./release-rules.ts";

export interface Workspace {
  seller: SellerState;
  /** Offers as this change set sees them; copies of the committed ones once touched. */
  offers: Map<string, Offer>;
  touched: Set<string>;
  now: number;
}

const AFTER_RELEASE = "The requested change can't be performed after the offer is released.";
const err = (ErrorCode: string, ErrorMessage: string): ChangeError[] => [{ ErrorCode, ErrorMessage }];

function editable(ws: Workspace, id: string): Offer | undefined {
  const offer = ws.offers.get(id);
  if (!offer) return undefined;
  if (!ws.touched.has(id)) {
    const copy = structuredClone(offer);
    ws.offers.set(id, copy);
    ws.touched.add(id);
    return copy;
  }
  return offer;
}

function withTerms(
  offer: Offer,
  ws: Workspace,
  owned: (t: Term) => boolean,
  terms: Term[],
  checkCurrency: boolean,
): ChangeError[] {
  if (offer.state === "Released") return err("INCOMPATIBLE_TERMS", AFTER_RELEASE);
  const next = [...offer.terms.filter((t) => !owned(t)), ...terms];
  const problems = checkCurrency ? currencyErrors(next, ws.seller.payoutCurrencies) : [];
  if (!problems.length) replaceTerms(offer, owned, terms);
  return problems;
}

/**
 * Applies one Offer@1.0 change to the workspace with the business rules AWS documents, returning
 * its ErrorDetailList (empty when it applied). Nothing reaches the seller until the whole change
 * set succeeded.
 */
export function applyOfferChange(ws: Workspace, change: ChangeRecord): ChangeError[] {
  const d = change.Details;
  if (change.ChangeType === "CreateOffer") {
    const { ProductId, Name } = d as OfferChangeDetails<"CreateOffer">;
    const product = ws.seller.products.get(ProductId);
    if (!product || product.visibility === "Draft") {
      return err(
        "INCOMPATIBLE_PRODUCT",
        `Product ${ProductId} must be published (Limited or Public) before offers can be created for it.`,
      );
    }
    ws.offers.set(change.EntityId, {
      id: change.EntityId,
      productId: ProductId,
      name: Name,
      state: "Draft",
      createdBySource: "Seller",
      buyerAccounts: [],
      terms: [],
      revision: 0,
      lastModified: ws.now,
    });
    ws.touched.add(change.EntityId);
    return [];
  }
  if (change.ChangeType === "CreateReplacementOffer") {
    const { AgreementId, Name } = d as OfferChangeDetails<"CreateReplacementOffer">;
    const agreement = ws.seller.agreements.find((a) => a.id === AgreementId);
    if (!agreement) return err("INVALID_AGREEMENT_ID", `Agreement ${AgreementId} not found.`);
    // The agreement's product and buyer: the offer is addressed to whoever accepted the agreement.
    ws.offers.set(change.EntityId, {
      id: change.EntityId,
      productId: agreement.productId,
      name: Name,
      state: "Draft",
      createdBySource: "Seller",
      buyerAccounts: [agreement.acceptorAccountId],
      targetAgreementId: AgreementId,
      terms: [],
      revision: 0,
      lastModified: ws.now,
    });
    ws.touched.add(change.EntityId);
    return [];
  }
  const offer = editable(ws, change.EntityId);
  if (!offer)
    return err(
      "INVALID_ENTITY_REFERENCE",
      `Offer ${change.EntityId} does not exist because the change that creates it failed.`,
    );

  switch (change.ChangeType) {
    case "UpdateInformation": {
      const u = d as OfferChangeDetails<"UpdateInformation">;
      if (u.Name !== undefined) offer.name = u.Name;
      if (u.Description !== undefined) offer.description = u.Description;
      if (u.PreExistingAgreement) offer.preExistingAgreement = u.PreExistingAgreement;
      return [];
    }
    case "UpdateTargeting": {
      if (offer.state === "Released") return err("INCOMPATIBLE_TARGETING", AFTER_RELEASE);
      const { PositiveTargeting } = d as OfferChangeDetails<"UpdateTargeting">;
      offer.buyerAccounts = PositiveTargeting.BuyerAccounts ?? [];
      offer.countryCodes = PositiveTargeting.CountryCodes;
      return [];
    }
    case "UpdatePricingTerms": {
      const u = d as OfferChangeDetails<"UpdatePricingTerms">;
      return withTerms(offer, ws, isPricingTerm, u.Terms as Term[], true);
    }
    case "UpdateLegalTerms":
      return withTerms(
        offer,
        ws,
        (t) => t.Type === "LegalTerm",
        (d as OfferChangeDetails<"UpdateLegalTerms">).Terms as Term[],
        false,
      );
    case "UpdatePaymentScheduleTerms":
      return withTerms(
        offer,
        ws,
        (t) => t.Type === "PaymentScheduleTerm",
        (d as OfferChangeDetails<"UpdatePaymentScheduleTerms">).Terms as Term[],
        true,
      );
    case "UpdateValidityTerms":
      // Allowed after release (AWS: availability, validity and information stay editable).
      replaceTerms(
        offer,
        (t) => t.Type === "ValidityTerm",
        (d as OfferChangeDetails<"UpdateValidityTerms">).Terms as Term[],
      );
      return [];
    case "UpdateAvailability": {
      const { AvailabilityEndDate } = d as OfferChangeDetails<"UpdateAvailability">;
      // A past date on a released offer expires it ("set ... in the past to expire the offer");
      // a draft cannot be given a date it could never be released with.
      if (offer.state === "Draft" && endOfDay(AvailabilityEndDate) < ws.now) {
        return err(
          "INVALID_AVAILABILITY_END_DATE",
          `AvailabilityEndDate ${AvailabilityEndDate} is in the past (today is ${isoDay(ws.now)}).`,
        );
      }
      offer.availabilityEndDate = AvailabilityEndDate;
      return [];
    }
    case "ReleaseOffer": {
      const problems = releaseErrors(offer, ws.seller, ws.now);
      if (!problems.length) {
        offer.state = "Released";
        offer.releaseDate = ws.now;
      }
      return problems;
    }
    default:
      return err("UNSUPPORTED_CHANGE_TYPE", `${change.ChangeType} is not supported.`);
  }
}
