import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { membershipState } from "../verbs/membership-state.ts";

export function mountInternalMembershipsGet(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.memberships.get"), async ({ params }, c) => ({
    status: 200,
    body: await membershipState({ ctx: c.get("ctx"), tenantId: params.id, sub: params.sub }),
  }));
}
