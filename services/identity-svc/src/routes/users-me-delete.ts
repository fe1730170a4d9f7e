import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { deleteAccount } from "../verbs/delete-account.ts";
import { requireUser } from "../verbs/lib/guards.ts";

export function mountUsersMeDelete(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.delete"), async (_, c) => {
    const ctx = c.get("ctx");
    const { sub } = requireUser(ctx);
    return { status: 200, body: await deleteAccount({ ctx, sub }) };
  });
}
