import type { Migration } from "@flowstate/shared/db/migrate";

/**
 * partner's schema: the latest partner-program state per opportunity and per engagement per tenant
 * (tenant data, never in a personal export). Rows hold ids and event metadata only. Never edit a
 * shipped migration; append a new one.
 */
export const migrations: readonly Migration[] = [
  {
    name: "0001_partner_sync",
    up: `
      CREATE TABLE partner_opportunity (
        tenant_id text NOT NULL,
        catalog text NOT NULL CHECK (catalog IN ('AWS', 'Sandbox')),
        opportunity_id text NOT NULL,
        account_id text NOT NULL,
        -- The newest event by (event time, event id): out-of-order and duplicate deliveries converge.
        last_event_type text NOT NULL,
        last_event_at timestamptz NOT NULL,
        last_event_id text NOT NULL,
        -- Set by Opportunity Accepted / Rejected only, the newest of those by event time.
        review_outcome text CHECK (review_outcome IN ('accepted', 'rejected')),
        review_outcome_at timestamptz,
        first_seen_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, catalog, opportunity_id)
      );
      CREATE INDEX partner_opportunity_page ON partner_opportunity (tenant_id, last_event_at DESC, opportunity_id);

      CREATE TABLE partner_engagement (
        tenant_id text NOT NULL,
        catalog text NOT NULL CHECK (catalog IN ('AWS', 'Sandbox')),
        engagement_id text NOT NULL,
        account_id text NOT NULL,
        invitation_id text,
        -- One way only: PENDING → ACCEPTED | REJECTED | EXPIRED (a late Created never reopens it).
        invitation_status text CHECK (invitation_status IN ('PENDING', 'ACCEPTED', 'REJECTED', 'EXPIRED')),
        invitation_status_at timestamptz,
        opportunity_ids text[] NOT NULL DEFAULT '{}',
        last_event_type text NOT NULL,
        last_event_at timestamptz NOT NULL,
        last_event_id text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, catalog, engagement_id)
      );
      CREATE INDEX partner_engagement_page ON partner_engagement (tenant_id, last_event_at DESC, engagement_id);
    `,
  },
  {
    // Issue 24: a partner event that arrives after TenantSoftDeleted (no order between the two)
    // re-created the forgotten tenant's rows. The tenant's id is kept to refuse them.
    name: "0002_partner_forgotten_tenant",
    up: `
      CREATE TABLE partner_forgotten_tenant (
        tenant_id text PRIMARY KEY,
        forgotten_at timestamptz NOT NULL
      );
    `,
  },
];
