import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { removeMember } from "../verbs/remove-member.ts";

export function mountMembersRemove(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "members.remove"), async ({ params }, c) => {
    await removeMember({ ctx: c.get("ctx"), tenantId: params.id, sub: params.sub });
    return { status: 204 };
  });
}
