import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { getOffer } from "../verbs/get-offer.ts";

const route = routeIn(offersRoutes, "offers.get");

export function mountOffersGet(app: OffersApp): void {
  mountRoute(app, route, async ({ params }, c) => ({
    status: 200,
    body: await getOffer({ ctx: begin(c, params), offerId: params.offer_id }),
  }));
}
