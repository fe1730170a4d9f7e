import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import { renewDoorLease } from "../doors/door-lease-verbs.ts";
import type { IdentityApp } from "../http/env.ts";

export function mountInternalDoorsRenew(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.doors.renew"), async ({ params, body }, c) => ({
    status: 200,
    body: await renewDoorLease({ ctx: c.get("ctx"), instanceId: params.instance, pushUrl: body.push_url }),
  }));
}
