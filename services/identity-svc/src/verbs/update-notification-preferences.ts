import type {
  NotificationPreferences,
  UpdateNotificationPreferencesRequest,
} from "@flowstate/contracts/rest/identity/users";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { NotificationPreferencesRow } from "../db/entities.ts";
import { withDefaults } from "./get-notification-preferences.ts";
import { loadActiveUser } from "./get-profile.ts";
import { requireUser } from "./lib/guards.ts";

/** Sets the given preferences; omitted keys keep their value. */
export async function updateNotificationPreferences({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: UpdateNotificationPreferencesRequest;
}): Promise<NotificationPreferences> {
  const { sub } = requireUser(ctx);
  return inTransaction(ctx, async (em) => {
    await loadActiveUser(em, sub, true); // the user row lock serialises concurrent PUTs of one user
    const row = await em.findOne(NotificationPreferencesRow, { sub });
    const next = { ...withDefaults(row?.preferences), ...input };
    if (row) {
      row.preferences = next;
      row.updated_at = now(ctx);
    } else {
      em.create(NotificationPreferencesRow, { sub, preferences: next, updated_at: now(ctx) });
    }
    emit(ctx, em, "NotificationPreferencesChanged.v1", { sub }, { subject: sub });
    return next;
  });
}
