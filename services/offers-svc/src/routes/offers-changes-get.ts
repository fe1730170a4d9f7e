import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { begin } from "../http/route-helpers.ts";
import { getChange } from "../verbs/get-change.ts";

const route = routeIn(offersRoutes, "offers.changes.get");

export function mountOffersChangesGet(app: OffersApp): void {
  mountRoute(app, route, async ({ params }, c) => ({
    status: 200,
    body: await getChange({ ctx: begin(c, params), changeSetId: params.change_set_id }),
  }));
}
