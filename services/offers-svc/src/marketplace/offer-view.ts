import type { EntitySummary } from "@aws-sdk/client-marketplace-catalog";
import type { Offer, OfferState, OfferSummary } from "@flowstate/contracts/rest/offers/offers";
import { type AwsTerm, readTerms } from "./terms.ts";

/** Offer@1.0 DetailsDocument members offers-svc reads (AWS's OfferEntityDetail). */
export interface OfferDetails {
  Id?: string;
  Name?: string;
  Description?: string;
  ProductId?: string;
  State?: string;
  Terms?: AwsTerm[];
  Rules?: { Type: string; AvailabilityEndDate?: string; PositiveTargeting?: { BuyerAccounts?: string[] } }[];
}

/** `2026-04-30T23:59:59Z` (or `...59.999Z`) → `2026-04-30`. */
const day = (iso: string | undefined) => iso?.slice(0, 10);
/** Catalog timestamps (`YYYY-MM-DDThh:mm:ssZ`) as RFC 3339 with milliseconds, like every Flowstate timestamp. */
const timestamp = (iso: string | undefined) => (iso ? new Date(iso).toISOString() : undefined);

/**
 * AWS has no "expired" state: an expired offer is `Released` with an availability end date before
 * today (its end date is inclusive).
 */
export function offerState(
  awsState: string | undefined,
  availabilityEnd: string | undefined,
  today: string,
): OfferState {
  if (awsState !== "Released") return "draft";
  return availabilityEnd !== undefined && availabilityEnd < today ? "expired" : "released";
}

/** A ListEntities offer summary as the list route answers it. */
export function offerSummaryView(s: EntitySummary, today: string): OfferSummary {
  const o = s.OfferSummary ?? {};
  const end = day(o.AvailabilityEndDate);
  const releaseDate = timestamp(o.ReleaseDate);
  return {
    offer_id: s.EntityId ?? "",
    ...((o.Name ?? s.Name) ? { name: o.Name ?? s.Name } : {}),
    product_id: o.ProductId ?? "",
    state: offerState(o.State, end, today),
    visibility: o.BuyerAccounts?.length ? "private" : "public",
    buyer_accounts: o.BuyerAccounts ?? [],
    ...(end ? { availability_end_date: end } : {}),
    ...(releaseDate ? { release_date: releaseDate } : {}),
    last_modified_at: timestamp(s.LastModifiedDate) ?? new Date(0).toISOString(),
  };
}

/**
 * A DescribeEntity offer as the get route answers it: the DetailsDocument's terms typed, its
 * rules read for buyers and the availability end date.
 */
export function offerView(
  id: string,
  details: OfferDetails,
  meta: { lastModified?: string | undefined; releaseDate?: string | undefined },
  today: string,
): Offer {
  const rules = details.Rules ?? [];
  const end = day(rules.find((r) => r.Type === "AvailabilityRule")?.AvailabilityEndDate);
  const buyers = rules.find((r) => r.Type === "TargetingRule")?.PositiveTargeting?.BuyerAccounts ?? [];
  const terms = readTerms(details.Terms ?? []);
  const releaseDate = timestamp(meta.releaseDate);
  return {
    offer_id: id,
    ...(details.Name !== undefined ? { name: details.Name } : {}),
    ...(details.Description !== undefined ? { description: details.Description } : {}),
    product_id: details.ProductId ?? "",
    state: offerState(details.State, end, today),
    visibility: buyers.length ? "private" : "public",
    buyer_accounts: buyers,
    ...(terms.pricing ? { pricing: terms.pricing } : {}),
    ...(terms.payment_schedule ? { payment_schedule: terms.payment_schedule } : {}),
    ...(terms.legal_terms ? { legal_terms: terms.legal_terms } : {}),
    ...(terms.validity ? { validity: terms.validity } : {}),
    ...(end ? { availability_end_date: end } : {}),
    ...(releaseDate ? { release_date: releaseDate } : {}),
    last_modified_at: timestamp(meta.lastModified) ?? new Date(0).toISOString(),
    other_terms: terms.other,
  };
}
