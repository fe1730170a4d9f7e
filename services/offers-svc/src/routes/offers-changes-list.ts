import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { getOfferHistory } from "../verbs/get-offer-history.ts";

const route = routeIn(offersRoutes, "offers.changes.list");

export function mountOffersChangesList(app: OffersApp): void {
  mountRoute(app, route, async ({ params, query }, c) => ({
    status: 200 as const,
    body: await getOfferHistory({ ctx: begin(c, params), offerId: params.offer_id, query }),
  }));
}
