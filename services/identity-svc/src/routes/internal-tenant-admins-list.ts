import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { listTenantAdmins } from "../verbs/list-tenant-admins.ts";

export function mountInternalTenantAdminsList(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.tenant_admins.list"), async ({ params }, c) => ({
    status: 200,
    body: await listTenantAdmins({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
