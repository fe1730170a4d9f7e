import { z } from "zod";
import { ApiKeyId, Sub, TenantId } from "../../ids.ts";
import { FreeText } from "../../text.ts";

/**
 * Field shapes shared by identity's REST schemas. E-mail addresses are compared case-insensitively
 * (stored as given, matched lower-cased); 254 is the RFC 5321 path limit.
 */
export const Email = z.email().max(254);

/** Names people give and others read: FreeText (no lone surrogates, control or bidi characters; contracts/src/text.ts). */
export const PersonName = FreeText(100);
export const TenantName = FreeText(100);
export const ApiKeyName = FreeText(100);
/**
 * An RFC 3339 instant with an offset, within what PostgreSQL's timestamptz takes: zod's format
 * admits year 0000 and offsets up to ±23:59, which the database refuses ("date/time field value out
 * of range", "time zone displacement out of range") as a 500 if a query filter carries them there.
 */
export const Timestamp = z.iso
  .datetime({ offset: true })
  .refine((s) => !s.startsWith("0000-") && !/[+-](1[6-9]|2\d):\d\d$/.test(s), {
    message: "expected a timestamp from year 0001 with an offset within ±15:59",
  });

export const TenantPath = z.object({ id: TenantId });
export type TenantPath = z.infer<typeof TenantPath>;
export const MemberPath = z.object({ id: TenantId, sub: Sub });
export type MemberPath = z.infer<typeof MemberPath>;
export const ApiKeyPath = z.object({ id: TenantId, key_id: ApiKeyId });
export type ApiKeyPath = z.infer<typeof ApiKeyPath>;
