import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { addMember } from "../verbs/add-member.ts";

export function mountMembersAdd(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "members.add"), async ({ params, body }, c) => ({
    status: 201,
    body: await addMember({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
  }));
}
