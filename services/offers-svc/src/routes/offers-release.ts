import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { accepted, begin, idempotencyKeyOf } from "../http/route-helpers.ts";
import { releaseOffer } from "../verbs/release-offer.ts";

const route = routeIn(offersRoutes, "offers.release");

export function mountOffersRelease(app: OffersApp): void {
  mountRoute(app, route, async ({ params }, c) => {
    const ctx = begin(c, params);
    return accepted(await releaseOffer({ ctx, offerId: params.offer_id, idempotencyKey: idempotencyKeyOf(c, route) }));
  });
}
