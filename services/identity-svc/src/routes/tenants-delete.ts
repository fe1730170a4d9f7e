import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { softDeleteTenant } from "../verbs/soft-delete-tenant.ts";

export function mountTenantsDelete(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.delete"), async ({ params }, c) => {
    await softDeleteTenant({ ctx: c.get("ctx"), tenantId: params.id });
    return { status: 204 };
  });
}
