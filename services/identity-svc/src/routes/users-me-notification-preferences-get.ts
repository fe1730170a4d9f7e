import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { getNotificationPreferences } from "../verbs/get-notification-preferences.ts";

export function mountUsersMeNotificationPreferencesGet(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.notification_preferences.get"), async (_, c) => ({
    status: 200,
    body: await getNotificationPreferences({ ctx: c.get("ctx") }),
  }));
}
