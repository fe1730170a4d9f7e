import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { OffersDeps } from "./deps.ts";
import type { OffersApp, OffersEnv } from "./http/env.ts";
import { offersContext } from "./http/offers-context.ts";
import { mountAgreementsList } from "./routes/agreements-list.ts";
import { mountOffersChangesGet } from "./routes/offers-changes-get.ts";
import { mountOffersClone } from "./routes/offers-clone.ts";
import { mountOffersCreate } from "./routes/offers-create.ts";
import { mountOffersExpire } from "./routes/offers-expire.ts";
import { mountOffersGet } from "./routes/offers-get.ts";
import { mountOffersList } from "./routes/offers-list.ts";
import { mountOffersRelease } from "./routes/offers-release.ts";
import { mountSellerCurrenciesGet } from "./routes/seller-currencies-get.ts";

/**
 * offers-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the deny-by-default gateway assertion check, then one route per file, each mounted from its
 * registry entry (`routes/<route id>.ts` exports `mount<RouteId>`). `app.test.ts` checks that the
 * routes here and the registry's offers routes are the same set; `checkResponses` (tests) checks
 * every answer against its schema.
 */
export function createApp(
  deps: OffersDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): OffersApp {
  const app = createServiceApp<OffersEnv>({
    name: "offers-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 64 * 1024, // an offer with 26 buyers and 36 charges is a few KiB
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(offersContext(deps));
  mountOffersList(app);
  mountOffersCreate(app);
  mountOffersGet(app);
  mountOffersClone(app);
  mountOffersRelease(app);
  mountOffersExpire(app);
  mountOffersChangesGet(app);
  mountAgreementsList(app);
  mountSellerCurrenciesGet(app);
  return app;
}
