import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import type { Offer } from "@flowstate/contracts/rest/offers/offers";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { type OfferDetails, offerView } from "../marketplace/offer-view.ts";
import { CATALOG, callSeller, todayOf } from "./call-seller.ts";

/**
 * One offer as its seller reads it: DescribeEntity for the terms and rules, and (in parallel) the
 * offer's ListEntities summary for its release date, which the DetailsDocument does not carry.
 * An id that is not an offer of this seller is 404, like any other tenant's object.
 */
export async function getOffer({ ctx, offerId }: { ctx: ServiceContext; offerId: string }): Promise<Offer> {
  const [described, listed] = await callSeller(ctx, "offer", ({ catalog }) =>
    Promise.all([
      catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: offerId })),
      catalog.send(
        new ListEntitiesCommand({
          Catalog: CATALOG,
          EntityType: "Offer",
          EntityTypeFilters: { OfferFilters: { EntityId: { ValueList: [offerId] } } },
        }),
      ),
    ]),
  );
  if (!described.EntityType?.startsWith("Offer@")) throw notFound("offer");
  const details = (described.DetailsDocument ?? JSON.parse(described.Details ?? "{}")) as OfferDetails;
  const summary = listed.EntitySummaryList?.find((s) => s.EntityId === offerId);
  return offerView(
    offerId,
    details,
    { lastModified: described.LastModifiedDate, releaseDate: summary?.OfferSummary?.ReleaseDate },
    todayOf(ctx),
  );
}
