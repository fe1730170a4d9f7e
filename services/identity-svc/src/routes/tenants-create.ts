import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { createTenant } from "../verbs/create-tenant.ts";

export function mountTenantsCreate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.create"), async ({ body }, c) => {
    const tenant = await createTenant({ ctx: c.get("ctx"), input: body });
    return { status: 201, body: tenant, headers: { location: `/v1/tenants/${tenant.id}` } };
  });
}
