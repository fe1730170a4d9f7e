import { z } from "zod";
import { Sub } from "../../ids.ts";
import { Email, PersonName, Timestamp } from "./common.ts";

/** Only https pictures: a profile picture is rendered by other users' browsers. */
export const PictureUrl = z.url({ protocol: /^https$/ }).max(2048);

export const Profile = z.object({
  sub: Sub,
  name: z.string(),
  email: Email,
  picture_url: PictureUrl.nullable(),
  status: z.enum(["active", "deleted"]),
  created_at: Timestamp,
});
export type Profile = z.infer<typeof Profile>;

/** `picture_url: null` removes the picture. At least one field. */
export const UpdateProfileRequest = z
  .strictObject({ name: PersonName.optional(), picture_url: PictureUrl.nullable().optional() })
  .refine((v) => v.name !== undefined || v.picture_url !== undefined, { message: "give name or picture_url" });
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

/**
 * The known notification preferences, each on/off. A new kind of notification adds a key here
 * (with its default in identity-svc); an unknown key is refused rather than silently stored.
 */
export const NotificationPreferences = z.object({
  /** E-mail when a personal data export is ready (privacy-svc). */
  export_ready: z.boolean(),
  /** E-mail about security events: new sign-in, API key created, ownership transferred. */
  security_alerts: z.boolean(),
  /** E-mail when a marketplace offer change succeeds or fails (offers-svc). */
  offer_change_results: z.boolean(),
  /** Occasional product news. */
  product_updates: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT takes any subset of the known keys; omitted keys keep their value. */
export const UpdateNotificationPreferencesRequest = NotificationPreferences.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one preference" });
export type UpdateNotificationPreferencesRequest = z.infer<typeof UpdateNotificationPreferencesRequest>;

/**
 * Account deletion needs recent authentication (decisions.md, Consent): an access token whose
 * sign-in is at most 15 minutes old, or the password in this optional body.
 */
export const DeleteAccountRequest = z.strictObject({ password: z.string().min(1).max(256) }).optional();
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequest>;
/** How old a sign-in may be for account deletion without the password. */
export const REAUTHENTICATION_MAX_AGE_SECONDS = 15 * 60;

export const AccountDeleted = z.object({ deleted: z.literal(true), sub: Sub, deleted_at: Timestamp });
export type AccountDeleted = z.infer<typeof AccountDeleted>;
