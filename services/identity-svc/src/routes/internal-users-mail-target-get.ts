import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { mailTarget } from "../verbs/mail-target.ts";

export function mountInternalUsersMailTargetGet(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.users.mail_target.get"), async ({ params }, c) => ({
    status: 200,
    body: await mailTarget({ ctx: c.get("ctx"), sub: params.sub }),
  }));
}
