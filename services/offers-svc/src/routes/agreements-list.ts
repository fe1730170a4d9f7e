import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { listAgreements } from "../verbs/list-agreements.ts";

const route = routeIn(offersRoutes, "agreements.list");

export function mountAgreementsList(app: OffersApp): void {
  mountRoute(app, route, async ({ params, query }, c) => ({
    status: 200,
    body: await listAgreements({ ctx: begin(c, params), query }),
  }));
}
