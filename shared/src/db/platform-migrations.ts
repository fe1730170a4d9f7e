import type { Migration } from "./migrate.ts";

/**
 * Tables every service schema gets before its own migrations: the outbox (events written in the
 * same transaction as the state change, published by the relay) and the processed-event record
 * (the consumer's idempotency key, inserted in the same transaction as the handler's effect).
 */
export const platformMigrations: readonly Migration[] = [
  {
    name: "platform/0001_outbox",
    up: `
      CREATE TABLE outbox_event (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        event_key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        sent_at timestamptz
      );
      -- The relay only ever scans pending rows; a partial index keeps that scan small however
      -- many sent rows accumulate before they are pruned.
      CREATE INDEX outbox_event_pending ON outbox_event (next_attempt_at, seq) WHERE sent_at IS NULL;
      -- Wakes the relay at commit (NOTIFY is transactional: a rolled-back insert notifies nobody).
      -- Statement-level, and PostgreSQL folds identical notifications of one transaction into one.
      CREATE FUNCTION outbox_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(TG_TABLE_SCHEMA || '_outbox', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER outbox_event_notify AFTER INSERT ON outbox_event
        FOR EACH STATEMENT EXECUTE FUNCTION outbox_event_notify();
    `,
  },
  {
    name: "platform/0002_processed_event",
    up: `
      CREATE TABLE processed_event (
        event_id text PRIMARY KEY,
        event_key text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX processed_event_processed_at ON processed_event (processed_at);
    `,
  },
  {
    // An event PutEvents can never accept (over EventBridge's 256 KiB entry limit) is not retried
    // forever: the relay sets failed_at, and pending means neither sent nor failed.
    name: "platform/0003_outbox_failed",
    up: `
      ALTER TABLE outbox_event ADD COLUMN failed_at timestamptz;
      DROP INDEX outbox_event_pending;
      CREATE INDEX outbox_event_pending ON outbox_event (next_attempt_at, seq)
        WHERE sent_at IS NULL AND failed_at IS NULL;
      CREATE INDEX outbox_event_failed ON outbox_event (failed_at) WHERE failed_at IS NOT NULL;
    `,
  },
];
