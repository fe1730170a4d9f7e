import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { getFeatures } from "../verbs/get-features.ts";

export function mountFeaturesGet(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "features.get"), async ({ params }, c) => ({
    status: 200,
    body: await getFeatures({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
