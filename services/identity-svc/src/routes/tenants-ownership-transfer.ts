import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { requestOwnershipTransfer } from "../verbs/request-ownership-transfer.ts";

export function mountTenantsOwnershipTransfer(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "tenants.ownership_transfer"), async ({ params, body }, c) => ({
    status: 202,
    body: await requestOwnershipTransfer({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
