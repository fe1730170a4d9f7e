import { defineEntity, type InferEntity, p } from "@mikro-orm/postgresql";
import { oauthEntities } from "../oauth/db/entities.ts";

/**
 * identity's tables as MikroORM entities (columns in migrations.ts). Foreign keys are plain scalar
 * columns, not relations: every query here is a keyed lookup or a short join written by hand, and
 * scalars keep the unit of work free of lazy references.
 */
export const User = defineEntity({
  name: "User",
  tableName: "app_user",
  properties: {
    sub: p.string().primary(),
    email: p.string().nullable(),
    email_key: p.string().nullable(),
    name: p.string(),
    picture_url: p.string().nullable(),
    password_hash: p.string().nullable().hidden(),
    status: p.enum(["active", "deleted"] as const),
    disabled: p.boolean(),
    tokens_valid_after: p.datetime(),
    created_at: p.datetime(),
    disabled_at: p.datetime().nullable(),
    deleted_at: p.datetime().nullable(),
  },
});
export type User = InferEntity<typeof User>;

export const UserSession = defineEntity({
  name: "UserSession",
  tableName: "user_session",
  properties: {
    sid: p.string().primary(),
    sub: p.string(),
    created_at: p.datetime(),
    expires_at: p.datetime(),
    revoked_at: p.datetime().nullable(),
    revoked_reason: p.string().nullable(),
  },
});
export type UserSession = InferEntity<typeof UserSession>;

export const RefreshToken = defineEntity({
  name: "RefreshToken",
  tableName: "refresh_token",
  properties: {
    token_hash: p.string().primary(),
    sid: p.string(),
    created_at: p.datetime(),
    spent_at: p.datetime().nullable(),
  },
});
export type RefreshToken = InferEntity<typeof RefreshToken>;

export const Tenant = defineEntity({
  name: "Tenant",
  tableName: "tenant",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    status: p.enum(["active", "deleted"] as const),
    created_at: p.datetime(),
    deleted_at: p.datetime().nullable(),
    deleted_by: p.string().nullable(),
  },
});
export type Tenant = InferEntity<typeof Tenant>;

export const Membership = defineEntity({
  name: "Membership",
  tableName: "membership",
  properties: {
    tenant_id: p.string().primary(),
    sub: p.string().primary(),
    role: p.enum(["owner", "admin", "member"] as const),
    created_at: p.datetime(),
  },
});
export type Membership = InferEntity<typeof Membership>;

export const FeatureFlag = defineEntity({
  name: "FeatureFlag",
  tableName: "feature_flag",
  properties: {
    tenant_id: p.string().primary(),
    flag: p.string().primary(),
    enabled: p.boolean(),
    updated_at: p.datetime(),
    updated_by: p.string(),
  },
});
export type FeatureFlag = InferEntity<typeof FeatureFlag>;

export const NotificationPreferencesRow = defineEntity({
  name: "NotificationPreferencesRow",
  tableName: "notification_preferences",
  properties: {
    sub: p.string().primary(),
    preferences: p.json<Record<string, boolean>>(),
    updated_at: p.datetime(),
  },
});
export type NotificationPreferencesRow = InferEntity<typeof NotificationPreferencesRow>;

export const ApiKey = defineEntity({
  name: "ApiKey",
  tableName: "api_key",
  properties: {
    key_id: p.string().primary(),
    tenant_id: p.string(),
    name: p.string(),
    scope: p.enum(["read", "write"] as const),
    secret_hash: p.string().hidden(),
    created_by: p.string(),
    created_at: p.datetime(),
    revoked_at: p.datetime().nullable(),
    revoked_reason: p.string().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;

export const Invitation = defineEntity({
  name: "Invitation",
  tableName: "invitation",
  properties: {
    id: p.string().primary(),
    tenant_id: p.string(),
    kind: p.enum(["membership", "ownership"] as const),
    email: p.string().nullable(),
    email_key: p.string().nullable(),
    invitee_sub: p.string().nullable(),
    role: p.enum(["owner", "admin", "member"] as const),
    invited_by: p.string(),
    status: p.enum(["pending", "accepted", "declined", "expired", "cancelled"] as const),
    created_at: p.datetime(),
    expires_at: p.datetime(),
    responded_at: p.datetime().nullable(),
  },
});
export type Invitation = InferEntity<typeof Invitation>;

export const entities = [
  User,
  UserSession,
  RefreshToken,
  Tenant,
  Membership,
  FeatureFlag,
  NotificationPreferencesRow,
  ApiKey,
  ...oauthEntities,
  Invitation,
];
