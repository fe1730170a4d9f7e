import { ListEntitiesCommand, type OfferFilters } from "@aws-sdk/client-marketplace-catalog";
import type { ListOffersQuery, OfferList } from "@flowstate/contracts/rest/offers/offers";
import type { ServiceContext } from "../context.ts";
import { offerSummaryView } from "../marketplace/offer-view.ts";
import { CATALOG, callSeller, todayOf } from "./call-seller.ts";

/**
 * The seller's offers, newest change first, one AWS page per call (`cursor` is AWS's NextToken).
 * `expired` and `draft` are AWS filters; `released` asks AWS for released offers and drops the
 * expired ones here (an offer without an end date never expires, and AWS's date-range filter
 * would leave it out), so such a page can hold fewer than `limit` offers.
 */
export async function listOffers({ ctx, query }: { ctx: ServiceContext; query: ListOffersQuery }): Promise<OfferList> {
  const today = todayOf(ctx);
  const filters: OfferFilters = {};
  if (query.product_id) filters.ProductId = { ValueList: [query.product_id] };
  if (query.state) filters.State = { ValueList: [query.state === "draft" ? "Draft" : "Released"] };
  if (query.state === "expired") filters.AvailabilityEndDate = { DateRange: { BeforeValue: `${today}T00:00:00Z` } };
  if (query.visibility) filters.Targeting = { ValueList: [query.visibility === "private" ? "BuyerAccounts" : "None"] };
  const out = await callSeller(ctx, "offer", ({ catalog }) =>
    catalog.send(
      new ListEntitiesCommand({
        Catalog: CATALOG,
        EntityType: "Offer",
        ...(Object.keys(filters).length ? { EntityTypeFilters: { OfferFilters: filters } } : {}),
        EntityTypeSort: { OfferSort: { SortBy: "LastModifiedDate", SortOrder: "DESCENDING" } },
        MaxResults: query.limit,
        ...(query.cursor ? { NextToken: query.cursor } : {}),
      }),
    ),
  );
  let offers = (out.EntitySummaryList ?? []).map((s) => offerSummaryView(s, today));
  if (query.state) offers = offers.filter((o) => o.state === query.state);
  return { offers, ...(out.NextToken ? { next_cursor: out.NextToken } : {}) };
}
