import type { IdentityApp } from "../http/env.ts";
import { getNotificationPreferences } from "../verbs/get-notification-preferences.ts";

export function registerGetNotificationPreferences(app: IdentityApp): void {
  app.get("/v1/users/me/notification-preferences", async (c) =>
    c.json(await getNotificationPreferences({ ctx: c.get("ctx") }), 200),
  );
}
