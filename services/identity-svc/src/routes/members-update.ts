import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { changeMemberRole } from "../verbs/change-member-role.ts";

export function mountMembersUpdate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "members.update"), async ({ params, body }, c) => ({
    status: 200,
    body: await changeMemberRole({ ctx: c.get("ctx"), tenantId: params.id, sub: params.sub, input: body }),
  }));
}
