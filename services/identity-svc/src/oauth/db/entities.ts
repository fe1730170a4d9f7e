import { defineEntity, type InferEntity, p } from "@mikro-orm/postgresql";

/** The authorization server's tables (columns and reasons in migration.ts). */
export const OAuthClient = defineEntity({
  name: "OAuthClient",
  tableName: "oauth_client",
  properties: {
    client_id: p.string().primary(),
    client_name: p.string().nullable(),
    redirect_uris: p.json<string[]>(),
    metadata: p.json<Record<string, unknown>>(),
    created_at: p.datetime(),
    /** HMAC of the registering client address (the per-address limit); null for clients of before. */
    registered_by: p.string().nullable(),
    /** When the client was first issued a token; still null a day after registration: deleted. */
    first_token_at: p.datetime().nullable(),
  },
});
export type OAuthClient = InferEntity<typeof OAuthClient>;

/** The authorization request as validated by GET /oauth/authorize, kept until the consent. */
export interface AuthorizationRequest {
  client_id: string;
  client_name: string;
  /** What the page shows to identify the client: its metadata document's host, or "registered". */
  client_host: string | null;
  redirect_uri: string;
  scopes: string[];
  state: string | null;
  code_challenge: string;
  resource: string;
}

export const OAuthInteraction = defineEntity({
  name: "OAuthInteraction",
  tableName: "oauth_interaction",
  properties: {
    id_hash: p.string().primary(),
    csrf_hash: p.string(),
    request: p.json<AuthorizationRequest>(),
    sub: p.string().nullable(),
    auth_time: p.datetime().nullable(),
    created_at: p.datetime(),
    expires_at: p.datetime(),
  },
});
export type OAuthInteraction = InferEntity<typeof OAuthInteraction>;

export const OAuthCode = defineEntity({
  name: "OAuthCode",
  tableName: "oauth_code",
  properties: {
    code_hash: p.string().primary(),
    client_id: p.string(),
    client_name: p.string(),
    redirect_uri: p.string(),
    code_challenge: p.string(),
    resource: p.string(),
    scope: p.string(),
    tenant_id: p.string().nullable(),
    sub: p.string(),
    auth_time: p.datetime(),
    created_at: p.datetime(),
    expires_at: p.datetime(),
    used_at: p.datetime().nullable(),
    sid: p.string().nullable(),
  },
});
export type OAuthCode = InferEntity<typeof OAuthCode>;

export const OAuthGrant = defineEntity({
  name: "OAuthGrant",
  tableName: "oauth_grant",
  properties: {
    sid: p.string().primary(),
    sub: p.string(),
    client_id: p.string(),
    client_ref: p.string(),
    client_name: p.string(),
    resource: p.string(),
    scope: p.string(),
    tenant_id: p.string().nullable(),
    auth_time: p.datetime(),
    created_at: p.datetime(),
    last_used_at: p.datetime(),
  },
});
export type OAuthGrant = InferEntity<typeof OAuthGrant>;

export const OAuthRefreshToken = defineEntity({
  name: "OAuthRefreshToken",
  tableName: "oauth_refresh_token",
  properties: {
    token_hash: p.string().primary(),
    sid: p.string(),
    created_at: p.datetime(),
    spent_at: p.datetime().nullable(),
  },
});
export type OAuthRefreshToken = InferEntity<typeof OAuthRefreshToken>;

export const oauthEntities = [OAuthClient, OAuthInteraction, OAuthCode, OAuthGrant, OAuthRefreshToken];
