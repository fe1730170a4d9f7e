import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { deleteMyAccount } from "../verbs/delete-my-account.ts";

export function mountUsersMeDelete(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.delete"), async ({ body }, c) => ({
    status: 200,
    body: await deleteMyAccount({ ctx: c.get("ctx"), password: body?.password }),
  }));
}
