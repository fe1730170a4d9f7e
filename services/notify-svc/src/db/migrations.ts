import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * notify-svc's schema (ADR 0017). The platform's tables (outbox, processed events) come with
 * openDatabase. Append; never edit a shipped migration.
 * - `endpoint`: a tenant's webhook or Slack URL, its signing secrets (a rotation keeps the previous
 *   one until `previous_valid_until`) and its failure streak (`failing_since`, `failures`).
 * - `message`: what one domain event says to a tenant, its body fixed once (a retry or a replay
 *   sends the same bytes under the same `webhook-id`, the message id); one per event id.
 * - `delivery`: one message to one endpoint: the durable retry queue (`next_attempt_at`, claimed
 *   with `locked_until`) and the delivery log (kept DELIVERY_LOG_DAYS).
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_endpoint_message_delivery",
    up: `
      CREATE TABLE endpoint (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('webhook', 'slack')),
        url text NOT NULL,
        types text[] NOT NULL,
        description text,
        secret text,
        previous_secret text,
        previous_valid_until timestamptz,
        status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        disabled_at timestamptz,
        failures integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX endpoint_tenant ON endpoint (tenant_id, created_at, id);

      CREATE TABLE message (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        event_id text NOT NULL UNIQUE,
        type text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX message_tenant ON message (tenant_id);

      CREATE TABLE delivery (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        endpoint_id text NOT NULL REFERENCES endpoint (id) ON DELETE CASCADE,
        message_id text NOT NULL REFERENCES message (id) ON DELETE CASCADE,
        replay_of text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- One first delivery of a message per endpoint; replays are further rows.
      CREATE UNIQUE INDEX delivery_once ON delivery (endpoint_id, message_id) WHERE replay_of IS NULL;
      CREATE INDEX delivery_due ON delivery (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX delivery_log ON delivery (endpoint_id, created_at DESC, id DESC);
      CREATE INDEX delivery_age ON delivery (created_at);
    `,
  },
  {
    name: "0002_admin_notice",
    up: `
      -- An endpoint disabled for failing: the e-mail to the tenant's admins, written in the transaction
      -- that disables it and sent by the worker (at least once; the addresses are read from
      -- identity-svc at sending and never stored here).
      CREATE TABLE admin_notice (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        endpoint_id text NOT NULL REFERENCES endpoint (id) ON DELETE CASCADE,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        recipients integer,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX admin_notice_due ON admin_notice (next_attempt_at) WHERE sent_at IS NULL;
    `,
  },
  {
    name: "0003_person_mail",
    up: `
      -- The e-mail to the person who asked for an offer change, about its result (their
      -- offer_change_results preference decides, read from identity-svc at sending with the address,
      -- neither stored here). One per event; written in the consumer's transaction, sent by the worker.
      CREATE TABLE person_mail (
        event_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        sub text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        outcome text CHECK (outcome IN ('sent', 'preference_off', 'account_gone')),
        done_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX person_mail_due ON person_mail (next_attempt_at) WHERE done_at IS NULL;
      CREATE INDEX person_mail_tenant ON person_mail (tenant_id);
    `,
  },
  {
    // An event of a soft-deleted tenant delivered after TenantSoftDeleted (no order between them)
    // re-created its message and mailed the person about a tenant that is gone. Its id is kept to
    // drop them (verbs/forget-tenant.ts, shared/src/db/tenant-tombstones.ts).
    name: "0004_forgotten_tenant",
    up: `
      CREATE TABLE forgotten_tenant (
        tenant_id text PRIMARY KEY,
        forgotten_at timestamptz NOT NULL
      );
    `,
  },
];
