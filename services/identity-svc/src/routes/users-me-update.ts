import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { updateProfile } from "../verbs/update-profile.ts";

export function mountUsersMeUpdate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.update"), async ({ body }, c) => ({
    status: 200,
    body: await updateProfile({ ctx: c.get("ctx"), input: body }),
  }));
}
