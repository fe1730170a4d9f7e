import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { ConsoleDeps } from "./deps.ts";
import type { ConsoleApp } from "./http/env.ts";
import { pageHeaders } from "./http/page-headers.ts";
import { serverTiming } from "./http/server-timing.ts";
import { mountAccount } from "./routes/account.ts";
import { mountAccountDelete } from "./routes/account-delete.ts";
import { mountAccountMcp } from "./routes/account-mcp.ts";
import { mountAccountPreferences } from "./routes/account-preferences.ts";
import { mountAgreements } from "./routes/agreements.ts";
import { mountApiKeys } from "./routes/api-keys.ts";
import { mountAudit } from "./routes/audit.ts";
import { mountAuthRoutes } from "./routes/auth-routes.ts";
import { mountChange } from "./routes/change.ts";
import { mountFeatures } from "./routes/features.ts";
import { mountInvitations } from "./routes/invitations.ts";
import { mountMarketplaceHealth } from "./routes/marketplace-health.ts";
import { mountMarketplaceOnboarding } from "./routes/marketplace-onboarding.ts";
import { mountMembers } from "./routes/members.ts";
import { mountOfferDetail } from "./routes/offer-detail.ts";
import { mountOfferNew } from "./routes/offer-new.ts";
import { mountOffersList } from "./routes/offers-list.ts";
import { mountPartner } from "./routes/partner.ts";
import { mountProducts } from "./routes/products.ts";
import { mountSignup } from "./routes/signup.ts";
import { mountStatic } from "./routes/static.ts";
import { mountTenantHome } from "./routes/tenant-home.ts";
import { mountTenantOwnership } from "./routes/tenant-ownership.ts";
import { mountTenantRename } from "./routes/tenant-rename.ts";
import { mountTenants } from "./routes/tenants.ts";

/**
 * The seller console (ADR 0015): server-rendered pages under /app, every one a view of public API
 * calls made with the signed-in user's token. The platform base gives request ids, the access log,
 * the probes and the body limit; pages get the CSP and no-store headers.
 */
export function createApp(deps: ConsoleDeps, options: { metrics?: MetricsRegistry } = {}): ConsoleApp {
  const app = createServiceApp({
    name: "web-console",
    logger: deps.logger,
    metrics: options.metrics,
    bodyLimitBytes: 64 * 1024,
    readiness: { database: databaseReady(deps.orm) },
  }) as unknown as ConsoleApp;
  for (const path of ["/app", "/app/*"]) {
    app.use(path, serverTiming());
    app.use(path, async (c, next) => {
      c.set("deps", deps);
      await next();
    });
    app.use(path, pageHeaders());
  }
  for (const mount of [
    mountStatic,
    mountAuthRoutes,
    mountSignup,
    mountTenants,
    mountTenantHome,
    mountFeatures,
    mountTenantRename,
    mountAccount,
    mountAccountDelete,
    mountMarketplaceOnboarding,
    mountMarketplaceHealth,
    mountProducts,
    mountOffersList,
    mountOfferNew,
    mountOfferDetail,
    mountChange,
    mountAgreements,
    mountMembers,
    mountInvitations,
    mountApiKeys,
    mountAudit,
    mountAccountMcp,
    mountAccountPreferences,
    mountPartner,
    mountTenantOwnership,
  ])
    mount(app);
  return app;
}
