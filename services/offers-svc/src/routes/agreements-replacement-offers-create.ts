import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { OffersApp } from "../http/env.ts";
import { accepted, begin, idempotencyKeyOf } from "../http/route-helpers.ts";
import { createReplacementOffer } from "../verbs/create-replacement-offer.ts";

const route = routeIn(offersRoutes, "agreements.replacement_offers.create");

export function mountAgreementsReplacementOffersCreate(app: OffersApp): void {
  mountRoute(app, route, async ({ params, body }, c) => {
    const ctx = begin(c, params);
    return accepted(
      await createReplacementOffer({
        ctx,
        agreementId: params.agreement_id,
        input: body,
        idempotencyKey: idempotencyKeyOf(c, route),
      }),
    );
  });
}
