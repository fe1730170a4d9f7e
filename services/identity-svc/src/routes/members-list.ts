import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { listMembers } from "../verbs/list-members.ts";

export function mountMembersList(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "members.list"), async ({ params }, c) => ({
    status: 200,
    body: await listMembers({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
