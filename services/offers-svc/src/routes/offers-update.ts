import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { accepted, begin, idempotencyKeyOf } from "../http/route-helpers.ts";
import { updateOffer } from "../verbs/update-offer.ts";

const route = routeIn(offersRoutes, "offers.update");

export function mountOffersUpdate(app: OffersApp): void {
  mountRoute(app, route, async ({ params, body }, c) => {
    const ctx = begin(c, params);
    return accepted(
      await updateOffer({ ctx, offerId: params.offer_id, input: body, idempotencyKey: idempotencyKeyOf(c, route) }),
    );
  });
}
