import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * privacy's schema. Unqualified names: the runner sets search_path to the service schema.
 * Never edit a shipped migration; append a new one.
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_privacy",
    up: `
      CREATE TABLE export_job (
        id text PRIMARY KEY,
        sub text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'ready', 'failed', 'expired', 'cancelled')),
        requested_at timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        -- The archive's object key while it exists; NULL once deleted (expiry, account deletion).
        file_key text,
        file_written_at timestamptz,
        -- file_written_at + 7 days: from then on the job answers 410, whatever the bucket still holds.
        expires_at timestamptz,
        failure_code text,
        failure_reason text,
        -- Set when the account was deleted and the row reduced (README, "Account deletion").
        erased_at timestamptz
      );
      -- One queued or running job per user: the POST serialises on an advisory lock, and this makes
      -- a second one impossible whatever the code does.
      CREATE UNIQUE INDEX export_job_one_active ON export_job (sub) WHERE status IN ('queued', 'running');
      CREATE INDEX export_job_sub ON export_job (sub, requested_at, id);
      CREATE INDEX export_job_ready_expiry ON export_job (expires_at) WHERE status = 'ready';
      CREATE INDEX export_job_active_age ON export_job (requested_at) WHERE status IN ('queued', 'running');

      -- The notification send log: that an e-mail was sent (never its body or the address).
      -- The primary key is the at-most-once guard: a send is claimed by inserting its row first.
      CREATE TABLE send_log (
        job_id text NOT NULL,
        kind text NOT NULL,
        sub text NOT NULL,
        status text NOT NULL CHECK (status IN ('claimed', 'sent', 'skipped')),
        reason text,
        provider_message_id text,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        PRIMARY KEY (job_id, kind)
      );
      CREATE INDEX send_log_sub ON send_log (sub);
    `,
  },
];
