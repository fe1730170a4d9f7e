import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { updateFeatures } from "../verbs/update-features.ts";

export function mountFeaturesUpdate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "features.update"), async ({ params, body }, c) => ({
    status: 200,
    body: await updateFeatures({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
