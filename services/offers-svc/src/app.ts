import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { OffersDeps } from "./deps.ts";
import type { OffersApp, OffersEnv } from "./http/env.ts";
import { mountAgreementsList } from "./routes/agreements-list.ts";
import { mountAgreementsReplacementOffersCreate } from "./routes/agreements-replacement-offers-create.ts";
import { mountOffersChangesGet } from "./routes/offers-changes-get.ts";
import { mountOffersChangesList } from "./routes/offers-changes-list.ts";
import { mountOffersClone } from "./routes/offers-clone.ts";
import { mountOffersCreate } from "./routes/offers-create.ts";
import { mountOffersExpire } from "./routes/offers-expire.ts";
import { mountOffersGet } from "./routes/offers-get.ts";
import { mountOffersList } from "./routes/offers-list.ts";
import { mountOffersRelease } from "./routes/offers-release.ts";
import { mountOffersUpdate } from "./routes/offers-update.ts";
import { mountSellerCurrenciesGet } from "./routes/seller-currencies-get.ts";

/**
 * offers-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the seam (the caller verified; each route's declared access from the registry: tenant, role,
 * key scope; every write re-checks the credential with identity-svc before anything is submitted
 * to the seller's account), then one route per file, each mounted from its registry entry
 * (`routes/<route id>.ts` exports `mount<RouteId>`). `app.test.ts` checks that the routes here and
 * the registry's offers routes are the same set; `checkResponses` (tests) checks every answer
 * against its schema.
 */
export function createApp(deps: OffersDeps, options: AppOptions = {}): OffersApp {
  return databaseServiceApp<OffersEnv>("offers-svc", deps, options, {
    bodyLimitBytes: 64 * 1024, // an offer with 26 buyers and 36 charges is a few KiB
    seam: { service: "offers-svc", deps, credentials: deps.credentials },
    routes: [
      mountOffersList,
      mountOffersCreate,
      mountOffersGet,
      mountOffersClone,
      mountOffersUpdate,
      mountOffersChangesList,
      mountOffersRelease,
      mountOffersExpire,
      mountOffersChangesGet,
      mountAgreementsList,
      mountAgreementsReplacementOffersCreate,
      mountSellerCurrenciesGet,
    ],
  });
}
