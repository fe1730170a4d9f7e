import { z } from "zod";
import { ApiKeyId, Sub, TenantId } from "../../ids.ts";

/**
 * Field shapes shared by identity's REST schemas. E-mail addresses are compared case-insensitively
 * (stored as given, matched lower-cased); 254 is the RFC 5321 path limit.
 */
export const Email = z.email().max(254);

/**
 * A short human label: trimmed, 1 to `max` characters, well-formed Unicode (no lone surrogates,
 * which storage would silently replace) and no control characters (NUL is refused by PostgreSQL;
 * the others only hide text in UIs and logs).
 */
export const Label = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => s.isWellFormed(), { message: "must be well-formed Unicode" })
    .refine((s) => !/\p{Cc}/u.test(s), { message: "must not contain control characters" });
export const PersonName = Label(100);
export const TenantName = Label(100);
export const Timestamp = z.iso.datetime({ offset: true });

export const TenantPath = z.object({ id: TenantId });
export type TenantPath = z.infer<typeof TenantPath>;
export const MemberPath = z.object({ id: TenantId, sub: Sub });
export type MemberPath = z.infer<typeof MemberPath>;
export const ApiKeyPath = z.object({ id: TenantId, key_id: ApiKeyId });
export type ApiKeyPath = z.infer<typeof ApiKeyPath>;
