import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { listOffers } from "../verbs/list-offers.ts";

const route = routeIn(offersRoutes, "offers.list");

export function mountOffersList(app: OffersApp): void {
  mountRoute(app, route, async ({ params, query }, c) => ({
    status: 200,
    body: await listOffers({ ctx: begin(c, params), query }),
  }));
}
