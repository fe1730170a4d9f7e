import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { renameTenant } from "../verbs/rename-tenant.ts";

export function mountTenantsRename(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.rename"), async ({ params, body }, c) => ({
    status: 200,
    body: await renameTenant({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
