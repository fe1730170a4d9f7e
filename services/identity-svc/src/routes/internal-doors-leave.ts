import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import { leaveDoorLease } from "../doors/door-lease-verbs.ts";
import type { IdentityApp } from "../http/env.ts";

export function mountInternalDoorsLeave(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.doors.leave"), async ({ params }, c) => {
    await leaveDoorLease({ ctx: c.get("ctx"), instanceId: params.instance });
    return { status: 204 };
  });
}
