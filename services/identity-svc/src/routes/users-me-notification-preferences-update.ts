import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { updateNotificationPreferences } from "../verbs/update-notification-preferences.ts";

export function mountUsersMeNotificationPreferencesUpdate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.notification_preferences.update"), async ({ body }, c) => ({
    status: 200,
    body: await updateNotificationPreferences({ ctx: c.get("ctx"), input: body }),
  }));
}
