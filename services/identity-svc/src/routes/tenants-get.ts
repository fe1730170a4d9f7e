import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { getTenant } from "../verbs/get-tenant.ts";

export function mountTenantsGet(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.get"), async ({ params }, c) => ({
    status: 200,
    body: await getTenant({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
