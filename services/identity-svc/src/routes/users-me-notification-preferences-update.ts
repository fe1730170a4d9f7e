import { UpdateNotificationPreferencesRequest } from "@flowstate/contracts/rest/identity/users";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { updateNotificationPreferences } from "../verbs/update-notification-preferences.ts";

export function registerUpdateNotificationPreferences(app: IdentityApp): void {
  app.put("/v1/users/me/notification-preferences", async (c) => {
    const input = await readJson(c, UpdateNotificationPreferencesRequest);
    return c.json(await updateNotificationPreferences({ ctx: c.get("ctx"), input }), 200);
  });
}
