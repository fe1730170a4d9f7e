import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { tenantFeaturesState } from "../verbs/tenant-features-state.ts";

export function mountInternalFeaturesGet(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.features.get"), async ({ params }, c) => ({
    status: 200,
    body: await tenantFeaturesState({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
