import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { inviteMember } from "../verbs/invite-member.ts";

export function mountMembersAdd(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "members.add"), async ({ params, body }, c) => ({
    status: 201,
    body: await inviteMember({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
