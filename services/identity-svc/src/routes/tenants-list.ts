import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { listTenants } from "../verbs/list-tenants.ts";

export function mountTenantsList(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.list"), async (_, c) => ({
    status: 200,
    body: await listTenants({ ctx: c.get("ctx") }),
  }));
}
