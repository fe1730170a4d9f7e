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
export const Timestamp = z.iso.datetime({ offset: true });

export const TenantPath = z.object({ id: TenantId });
export type TenantPath = z.infer<typeof TenantPath>;
export const MemberPath = z.object({ id: TenantId, sub: Sub });
export type MemberPath = z.infer<typeof MemberPath>;
export const ApiKeyPath = z.object({ id: TenantId, key_id: ApiKeyId });
export type ApiKeyPath = z.infer<typeof ApiKeyPath>;
