import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { getSellerCurrencies } from "../verbs/seller-currencies.ts";

const route = routeIn(offersRoutes, "seller.currencies.get");

export function mountSellerCurrenciesGet(app: OffersApp): void {
  mountRoute(app, route, async ({ params }, c) => ({
    status: 200,
    body: await getSellerCurrencies({ ctx: begin(c, params) }),
  }));
}
