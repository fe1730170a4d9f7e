import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * web-console's schema: sessions and sign-ins in progress, nothing of the product (every page
 * reads the public API). Never edit a shipped migration; append a new one.
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_console_sessions",
    up: `
      -- One row per signed-in browser. The cookie holds a random id; only its SHA-256 is stored, so
      -- a copy of the table opens no session. The tokens are sealed (AES-256-GCM, the row's id hash
      -- as associated data: a sealed value moved to another row does not open).
      CREATE TABLE console_session (
        id_hash text PRIMARY KEY,
        sub text NOT NULL,
        tokens bytea NOT NULL,
        access_expires_at timestamptz NOT NULL,
        signed_in_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX console_session_sub ON console_session (sub);
      CREATE INDEX console_session_expiry ON console_session (expires_at);

      -- A sign-in between the redirect to identity-svc and the callback: the PKCE verifier (sealed)
      -- and where to go afterwards, keyed by the SHA-256 of the state the browser's cookie holds.
      CREATE TABLE console_login (
        state_hash text PRIMARY KEY,
        verifier bytea NOT NULL,
        return_to text NOT NULL,
        created_at timestamptz NOT NULL
      );
    `,
  },
];
