import type { NotificationPreferences } from "@flowstate/contracts/rest/identity/users";
import type { ServiceContext } from "../context.ts";
import { NotificationPreferencesRow } from "../db/entities.ts";
import { loadActiveUser } from "./get-profile.ts";
import { requireUser } from "./lib/guards.ts";

/**
 * Defaults for anyone who never chose: security mail and the mail the user asked for (exports,
 * offer results) on, marketing off (opt-in, as the ePrivacy rules expect).
 */
export const PREFERENCE_DEFAULTS: NotificationPreferences = {
  export_ready: true,
  security_alerts: true,
  offer_change_results: true,
  product_updates: false,
};

/** Stored maps may hold keys a newer version added or an older one dropped: keep only known ones. */
export const withDefaults = (stored: Record<string, boolean> | undefined): NotificationPreferences => {
  const out = { ...PREFERENCE_DEFAULTS };
  for (const k of Object.keys(out) as (keyof NotificationPreferences)[]) {
    if (typeof stored?.[k] === "boolean") out[k] = stored[k];
  }
  return out;
};

export async function getNotificationPreferences({ ctx }: { ctx: ServiceContext }): Promise<NotificationPreferences> {
  const { sub } = requireUser(ctx);
  await loadActiveUser(ctx.em, sub);
  const row = await ctx.em.findOne(NotificationPreferencesRow, { sub });
  return withDefaults(row?.preferences);
}
