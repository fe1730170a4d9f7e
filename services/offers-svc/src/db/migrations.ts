import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * offers' schema. Unqualified names: the runner sets search_path to the service schema. Never
 * edit a shipped migration; append a new one.
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_offer_change",
    up: `
      -- One submitted change set (create, clone, release or expire), from the moment it is about to
      -- be sent to AWS until AWS reports a terminal status. The tracker works from this table only,
      -- so a restart resumes every change set in flight.
      CREATE TABLE offer_change (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        action text NOT NULL CHECK (action IN ('create', 'clone', 'release', 'expire')),
        -- release, expire: the offer changed; clone: the original.
        offer_id text,
        -- create, clone: the offer the change set created (known once it succeeded).
        result_offer_id text,
        idempotency_key text,
        -- sha256 of the validated request: the same key with another request is refused.
        request_hash text NOT NULL,
        -- AWS's ClientRequestToken: derived from the idempotency key, so a retry or a concurrent
        -- duplicate that reaches AWS gets the same change set back.
        client_token text NOT NULL UNIQUE,
        -- The StartChangeSet input (ChangeSetName, ChangeSet), kept to resubmit after a crash.
        request jsonb NOT NULL,
        change_set_id text UNIQUE,
        -- submitting: not yet acknowledged by AWS; rejected: AWS refused it synchronously (kept for
        -- its idempotency key); then AWS's status, lower-cased.
        status text NOT NULL CHECK (status IN ('submitting', 'rejected', 'preparing', 'applying', 'succeeded', 'failed', 'cancelled')),
        failure_code text,
        -- Per change: {change_type, offer_id, errors: [{code, message}]}, from the terminal DescribeChangeSet.
        changes jsonb,
        -- The envelope actor of its events: {kind: "user", sub} or {kind: "api_key", key_id, sub}.
        actor jsonb NOT NULL,
        -- The request that submitted it: its events carry it, tying them to logs and answers.
        request_id text,
        -- The Flowstate principal that reaches the seller's account (backend, mcp-execution).
        principal text NOT NULL,
        trace text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        -- Not before this instant may anyone poll (or resubmit) it: claiming a row moves it forward
        -- by at least 2 s in the same statement, which is how no change set is polled more often.
        next_poll_at timestamptz NOT NULL,
        last_polled_at timestamptz,
        polls integer NOT NULL DEFAULT 0,
        poll_errors integer NOT NULL DEFAULT 0,
        UNIQUE (tenant_id, idempotency_key)
      );
      CREATE INDEX offer_change_due ON offer_change (next_poll_at)
        WHERE status IN ('submitting', 'preparing', 'applying');
    `,
  },
  {
    name: "0002_offer_change_currency_not_checked",
    up: `
      -- create, clone: why the currency was not checked (the seller's currencies undetermined), part
      -- of the 202 answer, kept so an idempotent replay answers exactly what the first request did.
      ALTER TABLE offer_change ADD COLUMN currency_not_checked jsonb;
    `,
  },
  {
    name: "0003_offer_change_untracked",
    up: `
      -- Why the tracker leaves a change set alone although AWS has not ended it: 'disconnected' (a
      -- poll found the tenant without a connector; ConnectorConnected clears it). A soft-deleted
      -- tenant's rows are deleted instead (consumers/handlers.ts).
      ALTER TABLE offer_change ADD COLUMN untracked_reason text CHECK (untracked_reason IN ('disconnected'));
      DROP INDEX offer_change_due;
      CREATE INDEX offer_change_due ON offer_change (next_poll_at)
        WHERE status IN ('submitting', 'preparing', 'applying') AND untracked_reason IS NULL;
      CREATE INDEX offer_change_tenant ON offer_change (tenant_id);
    `,
  },
  {
    name: "0004_offer_change_update",
    up: `
      -- update: a draft's details changed (PATCH offers/{offer_id}); offer_id is the draft.
      ALTER TABLE offer_change DROP CONSTRAINT offer_change_action_check;
      ALTER TABLE offer_change ADD CONSTRAINT offer_change_action_check
        CHECK (action IN ('create', 'clone', 'release', 'expire', 'update'));
      -- An offer's history (verbs/get-offer-history.ts).
      CREATE INDEX offer_change_offer ON offer_change (tenant_id, offer_id, submitted_at DESC);
      CREATE INDEX offer_change_result_offer ON offer_change (tenant_id, result_offer_id, submitted_at DESC);
    `,
  },
  {
    name: "0005_agreement_watch",
    up: `
      -- A tenant the agreement watch polls (watch/): enrolled on ConnectorConnected or on its first
      -- agreements read; deleted when the tenant is found disconnected, disconnects or is soft-deleted.
      CREATE TABLE agreement_watch (
        tenant_id text PRIMARY KEY,
        -- Not before this instant may anyone call SearchAgreements for the tenant: claiming it moves
        -- it one interval ahead in the same statement (at most one page per tenant per interval).
        next_poll_at timestamptz NOT NULL DEFAULT now(),
        -- When it was last claimed (a read retries a refused tenant sooner: watch/claim.ts).
        claimed_at timestamptz,
        -- SearchAgreements' nextToken where the next poll goes on; NULL: from the first page.
        page_token text,
        -- The first full pass is done: what it found existed before watching began (no events).
        baseline_done boolean NOT NULL DEFAULT false,
        -- The last SearchAgreements answered (the list's freshness stamp).
        synced_at timestamptz,
        -- The last poll failed: 'denied' (the role lacks SearchAgreements: the list answers 500) or
        -- 'unavailable' (throttled, AWS down: polls back off); with AWS's error name.
        last_failure text CHECK (last_failure IN ('denied', 'unavailable')),
        last_failure_name text,
        poll_errors integer NOT NULL DEFAULT 0
      );
      CREATE INDEX agreement_watch_due ON agreement_watch (next_poll_at);
      -- A purchase agreement as the watch last read it (the agreements list serves these).
      CREATE TABLE agreement (
        tenant_id text NOT NULL,
        agreement_id text NOT NULL,
        status text NOT NULL,
        offer_id text,
        product_id text,
        buyer_account_id text,
        accepted_at timestamptz,
        start_time timestamptz,
        end_time timestamptz,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        changed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, agreement_id)
      );
      -- The list's order, as AWS's (EndTime descending; pay-as-you-go, without an end, first).
      CREATE INDEX agreement_listing ON agreement (tenant_id, (coalesce(end_time, 'infinity')) DESC, agreement_id DESC);
    `,
  },
];
