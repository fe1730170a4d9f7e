import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { transferOwnership } from "../verbs/transfer-ownership.ts";

export function mountTenantsOwnershipTransfer(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.ownership_transfer"), async ({ params, body }, c) => ({
    status: 200,
    body: await transferOwnership({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
