import type { Migration } from "@flowstate/shared/db/migrate";
import { oauthMigration } from "../oauth/db/migration.ts";

/**
 * identity's schema. Unqualified names: the runner sets search_path to the service schema.
 * Never edit a shipped migration; append a new one.
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_identity",
    up: `
      -- Foreign keys are checked at commit (DEFERRABLE INITIALLY DEFERRED): the entities map them as
      -- plain columns, so the unit of work does not order inserts by them.
      -- "user" is reserved in PostgreSQL, hence app_user.
      CREATE TABLE app_user (
        sub text PRIMARY KEY,
        -- email and email_key are erased (NULL) when the account is deleted; the row stays so
        -- that sessions, keys and events keep a valid subject.
        email text,
        -- lower(email): e-mail addresses are unique case-insensitively.
        email_key text,
        name text NOT NULL,
        picture_url text,
        password_hash text,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
        disabled boolean NOT NULL DEFAULT false,
        -- Access tokens issued (iat) before this instant are refused: the per-account revocation fact.
        tokens_valid_after timestamptz NOT NULL DEFAULT 'epoch',
        created_at timestamptz NOT NULL,
        disabled_at timestamptz,
        deleted_at timestamptz,
        CHECK (status = 'deleted' OR (email IS NOT NULL AND email_key IS NOT NULL AND password_hash IS NOT NULL))
      );
      CREATE UNIQUE INDEX app_user_email_key ON app_user (email_key);

      -- One session per sign-in; it is also the refresh-token family.
      CREATE TABLE user_session (
        sid text PRIMARY KEY,
        sub text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoked_reason text
      );
      CREATE INDEX user_session_live ON user_session (sub) WHERE revoked_at IS NULL;

      -- Only SHA-256 hashes of refresh tokens are stored; a spent token is kept to detect replay.
      CREATE TABLE refresh_token (
        token_hash text PRIMARY KEY,
        sid text NOT NULL REFERENCES user_session (sid) DEFERRABLE INITIALLY DEFERRED,
        created_at timestamptz NOT NULL,
        spent_at timestamptz
      );
      CREATE INDEX refresh_token_sid ON refresh_token (sid);

      CREATE TABLE tenant (
        id text PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
        created_at timestamptz NOT NULL,
        deleted_at timestamptz,
        deleted_by text
      );

      CREATE TABLE membership (
        tenant_id text NOT NULL REFERENCES tenant (id) DEFERRABLE INITIALLY DEFERRED,
        sub text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, sub)
      );
      -- Exactly one owner per tenant is kept by the verbs; the index makes two impossible.
      CREATE UNIQUE INDEX membership_one_owner ON membership (tenant_id) WHERE role = 'owner';
      CREATE INDEX membership_sub ON membership (sub);

      CREATE TABLE feature_flag (
        tenant_id text NOT NULL REFERENCES tenant (id) DEFERRABLE INITIALLY DEFERRED,
        flag text NOT NULL,
        enabled boolean NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL,
        PRIMARY KEY (tenant_id, flag)
      );

      CREATE TABLE notification_preferences (
        sub text PRIMARY KEY REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        preferences jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      );

      CREATE TABLE api_key (
        key_id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenant (id) DEFERRABLE INITIALLY DEFERRED,
        name text NOT NULL,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        secret_hash text NOT NULL,
        created_by text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoked_reason text
      );
      CREATE INDEX api_key_tenant ON api_key (tenant_id, created_at);
      CREATE INDEX api_key_live_by_creator ON api_key (created_by) WHERE revoked_at IS NULL;
    `,
  },
  {
    // A pre-release 0001 without DEFERRABLE ran on some local databases (an `npm start` during
    // development). Idempotent: on databases created from the current 0001 it changes nothing.
    name: "0002_deferrable_foreign_keys",
    up: `
      ALTER TABLE user_session ALTER CONSTRAINT user_session_sub_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE refresh_token ALTER CONSTRAINT refresh_token_sid_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE membership ALTER CONSTRAINT membership_tenant_id_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE membership ALTER CONSTRAINT membership_sub_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE feature_flag ALTER CONSTRAINT feature_flag_tenant_id_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE notification_preferences ALTER CONSTRAINT notification_preferences_sub_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE api_key ALTER CONSTRAINT api_key_tenant_id_fkey DEFERRABLE INITIALLY DEFERRED;
      ALTER TABLE api_key ALTER CONSTRAINT api_key_created_by_fkey DEFERRABLE INITIALLY DEFERRED;
    `,
  },
  oauthMigration,
  {
    // Consent (issue 7): membership and ownership are offered, and exist only once accepted.
    name: "0004_invitations",
    up: `
      CREATE TABLE invitation (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenant (id) DEFERRABLE INITIALLY DEFERRED,
        kind text NOT NULL CHECK (kind IN ('membership', 'ownership')),
        -- membership: the address as the admin typed it and lower(address), matched against the
        -- invitee's account when they look; never resolved to an account before that.
        email text,
        email_key text,
        -- ownership: the member asked to take the tenant over.
        invitee_sub text REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        invited_by text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'cancelled')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        responded_at timestamptz,
        CHECK (kind <> 'membership' OR (email_key IS NOT NULL AND invitee_sub IS NULL AND role <> 'owner')),
        CHECK (kind <> 'ownership' OR (email_key IS NULL AND invitee_sub IS NOT NULL AND role = 'owner'))
      );
      -- One open invitation per address and tenant (a second invite refreshes it), one open
      -- transfer per tenant (a new one cancels the old).
      CREATE UNIQUE INDEX invitation_open_membership ON invitation (tenant_id, email_key)
        WHERE status = 'pending' AND kind = 'membership';
      CREATE UNIQUE INDEX invitation_open_ownership ON invitation (tenant_id)
        WHERE status = 'pending' AND kind = 'ownership';
      CREATE INDEX invitation_open_by_email ON invitation (email_key) WHERE status = 'pending';
      CREATE INDEX invitation_open_by_sub ON invitation (invitee_sub) WHERE status = 'pending';
      CREATE INDEX invitation_open_by_expiry ON invitation (expires_at) WHERE status = 'pending';
    `,
  },
  {
    // Sign-in brute force (issue 7): failures counted per address, whether or not it has an account.
    name: "0005_sign_in_throttle",
    up: `
      CREATE TABLE sign_in_throttle (
        email_key text PRIMARY KEY,
        failures integer NOT NULL CHECK (failures >= 0),
        blocked_until timestamptz,
        last_attempt_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_throttle_last_attempt ON sign_in_throttle (last_attempt_at);
    `,
  },
  {
    // Issue 20 finding 7: OWASP device cookies. A device token's SHA-256, the account it was issued
    // to, and a backoff of its own (the same columns as sign_in_throttle's). The address rows are
    // keyed by an HMAC of the address from now on: the plaintext ones are dropped (a day's counts).
    name: "0006_sign_in_devices",
    up: `
      CREATE TABLE sign_in_device (
        token_hash text PRIMARY KEY,
        sub text NOT NULL REFERENCES app_user (sub) DEFERRABLE INITIALLY DEFERRED,
        failures integer NOT NULL CHECK (failures >= 0),
        blocked_until timestamptz,
        last_attempt_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_device_sub ON sign_in_device (sub, created_at);
      CREATE INDEX sign_in_device_expiry ON sign_in_device (expires_at);
      DELETE FROM sign_in_throttle;
    `,
  },
  {
    // Issue 20 finding 8: open registration, bounded. Who registered (an HMAC of the client address,
    // for the per-address limit) and when a client was first issued a token (never, a day after
    // registration: deleted by housekeeping). Clients of before are marked used if they have a grant.
    name: "0007_oauth_client_limits",
    up: `
      ALTER TABLE oauth_client ADD COLUMN registered_by text, ADD COLUMN first_token_at timestamptz;
      UPDATE oauth_client c SET first_token_at = g.first
        FROM (SELECT client_id, min(created_at) AS first FROM oauth_grant GROUP BY client_id) g
       WHERE g.client_id = c.client_id;
      CREATE INDEX oauth_client_registered_by ON oauth_client (registered_by, created_at);
      CREATE INDEX oauth_client_unused ON oauth_client (created_at) WHERE first_token_at IS NULL;
    `,
  },
  {
    // The door leases (ADR 0011): which gateway instances get every invalidation pushed before a
    // revoking call answers. In the database, so every identity-svc instance sees every door.
    name: "0008_door_leases",
    up: `
      CREATE TABLE door_lease (
        instance_id text PRIMARY KEY,
        push_url text NOT NULL,
        lease_until timestamptz NOT NULL,
        registered_at timestamptz NOT NULL
      );
    `,
  },
  {
    // Issue 24: an account deletion erases the address from every invitation that was sent to it
    // (closed ones too); only an open membership invitation still needs its address.
    name: "0009_invitation_address_erasable",
    up: `
      ALTER TABLE invitation DROP CONSTRAINT invitation_check;
      ALTER TABLE invitation ADD CONSTRAINT invitation_membership_shape CHECK (
        kind <> 'membership' OR ((email_key IS NOT NULL OR status <> 'pending') AND invitee_sub IS NULL AND role <> 'owner'));
    `,
  },
];
