import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * The authorization server's tables (appended to identity's migration list). A grant's token family
 * is a `user_session` row (sid), so every account-wide revocation (deletion, disable,
 * `tokens_valid_after`) and the gateways' session check cover OAuth tokens unchanged; `oauth_grant`
 * holds what the user consented to, `oauth_refresh_token` the family's refresh tokens (apart from
 * REST's, so neither refresh endpoint accepts the other's tokens).
 */
export const oauthMigration: Migration = {
  name: "0003_oauth",
  up: `
    -- Clients registered through RFC 7591 (public clients: no secret). Metadata-document clients
    -- (https client ids) are fetched and cached in memory, never stored here.
    CREATE TABLE oauth_client (
      client_id text PRIMARY KEY,
      client_name text,
      redirect_uris jsonb NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL
    );

    -- One authorization request between the sign-in page and the consent: the validated request,
    -- the CSRF token's hash (rotated at sign-in) and, once signed in, who and when.
    CREATE TABLE oauth_interaction (
      id_hash text PRIMARY KEY,
      csrf_hash text NOT NULL,
      request jsonb NOT NULL,
      sub text REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
      auth_time timestamptz,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX oauth_interaction_expiry ON oauth_interaction (expires_at);

    -- Authorization codes (SHA-256 only), single use: used_at is set by the exchange, and sid names
    -- the family it issued, revoked if the code comes back.
    CREATE TABLE oauth_code (
      code_hash text PRIMARY KEY,
      client_id text NOT NULL,
      client_name text NOT NULL,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      resource text NOT NULL,
      scope text NOT NULL,
      tenant_id text,
      sub text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
      auth_time timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      sid text
    );
    CREATE INDEX oauth_code_live ON oauth_code (sub, client_id) WHERE used_at IS NULL;

    -- What the user consented to, per token family (a user_session row of the same sid).
    CREATE TABLE oauth_grant (
      sid text PRIMARY KEY REFERENCES user_session (sid) DEFERRABLE INITIALLY DEFERRED,
      sub text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
      client_id text NOT NULL,
      client_ref text NOT NULL,
      client_name text NOT NULL,
      resource text NOT NULL,
      scope text NOT NULL,
      tenant_id text,
      auth_time timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz NOT NULL
    );
    CREATE INDEX oauth_grant_sub ON oauth_grant (sub, client_ref);

    CREATE TABLE oauth_refresh_token (
      token_hash text PRIMARY KEY,
      sid text NOT NULL REFERENCES user_session (sid) DEFERRABLE INITIALLY DEFERRED,
      created_at timestamptz NOT NULL,
      spent_at timestamptz
    );
    CREATE INDEX oauth_refresh_token_sid ON oauth_refresh_token (sid);
  `,
};
