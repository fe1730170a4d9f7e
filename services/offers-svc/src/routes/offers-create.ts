import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { accepted, begin, idempotencyKeyOf } from "../http/route-helpers.ts";
import { createOffer } from "../verbs/create-offer.ts";

const route = routeIn(offersRoutes, "offers.create");

export function mountOffersCreate(app: OffersApp): void {
  mountRoute(app, route, async ({ params, body }, c) => {
    const ctx = begin(c, params);
    return accepted(await createOffer({ ctx, input: body, idempotencyKey: idempotencyKeyOf(c, route) }));
  });
}
