import type { PartnerEventMetadata } from "@flowstate/contracts/events/partner";
import type { EntityManager } from "@mikro-orm/postgresql";
import { partnerTombstones } from "./forget-tenant.ts";

/**
 * Applies one partner event's metadata to the tenant's sync state, in the consumer's transaction
 * (which also records the event id, so a duplicate never gets here). Each row keeps the newest
 * event by (event time, event id) whatever the delivery order; an invitation's status only moves
 * PENDING → terminal, and between terminal statuses the newest wins; opportunity links are a set.
 * One statement per row, so two events of one entity in the same batch cannot lose an update.
 */
export async function applyPartnerEvent(em: EntityManager, schema: string, m: PartnerEventMetadata): Promise<void> {
  // A soft-deleted tenant's late event is dropped (its rows were deleted and stay deleted).
  if (await partnerTombstones(schema).forgotten(em, m.tenant_id)) return;
  const at = new Date(m.event_time);
  if (m.detail_type.startsWith("Opportunity ") && m.opportunity_id) {
    const outcome =
      m.detail_type === "Opportunity Accepted"
        ? "accepted"
        : m.detail_type === "Opportunity Rejected"
          ? "rejected"
          : null;
    await em.execute(
      `INSERT INTO "${schema}".partner_opportunity AS o (tenant_id, catalog, opportunity_id, account_id,
         last_event_type, last_event_at, last_event_id, review_outcome, review_outcome_at, first_seen_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?::text, ?::timestamptz, now(), now())
       ON CONFLICT (tenant_id, catalog, opportunity_id) DO UPDATE SET
         ${newest("o")},
         review_outcome = CASE WHEN ${outcomeWins} THEN EXCLUDED.review_outcome ELSE o.review_outcome END,
         review_outcome_at = CASE WHEN ${outcomeWins} THEN EXCLUDED.review_outcome_at ELSE o.review_outcome_at END,
         updated_at = now()`,
      [
        m.tenant_id,
        m.catalog,
        m.opportunity_id,
        m.account_id,
        m.detail_type,
        at,
        m.partner_event_id,
        outcome,
        outcome ? at : null,
      ],
      "run",
    );
  }
  if (m.engagement_id) {
    const status = m.invitation_status ?? null;
    await em.execute(
      `INSERT INTO "${schema}".partner_engagement AS e (tenant_id, catalog, engagement_id, account_id, invitation_id,
         invitation_status, invitation_status_at, opportunity_ids, last_event_type, last_event_at, last_event_id,
         first_seen_at, updated_at)
       VALUES (?, ?, ?, ?, ?::text, ?::text, ?::timestamptz,
         CASE WHEN ?::text IS NULL THEN '{}'::text[] ELSE ARRAY[?::text] END, ?, ?, ?, now(), now())
       ON CONFLICT (tenant_id, catalog, engagement_id) DO UPDATE SET
         ${newest("e")},
         invitation_id = COALESCE(EXCLUDED.invitation_id, e.invitation_id),
         invitation_status = CASE WHEN ${statusWins} THEN EXCLUDED.invitation_status ELSE e.invitation_status END,
         invitation_status_at = CASE WHEN ${statusWins} THEN EXCLUDED.invitation_status_at ELSE e.invitation_status_at END,
         opportunity_ids = ARRAY(SELECT DISTINCT x FROM unnest(e.opportunity_ids || EXCLUDED.opportunity_ids) AS x ORDER BY x),
         updated_at = now()`,
      [
        m.tenant_id,
        m.catalog,
        m.engagement_id,
        m.account_id,
        m.invitation_id ?? null,
        status,
        status ? at : null,
        m.opportunity_id ?? null,
        m.opportunity_id ?? null,
        m.detail_type,
        at,
        m.partner_event_id,
      ],
      "run",
    );
  }
}

/** The last_event_* columns take the incoming event only when it is newer (ties broken by id). */
const newest = (t: string) => {
  const wins = `(EXCLUDED.last_event_at, EXCLUDED.last_event_id) > (${t}.last_event_at, ${t}.last_event_id)`;
  return ["last_event_type", "last_event_at", "last_event_id", "account_id"]
    .map((c) => `${c} = CASE WHEN ${wins} THEN EXCLUDED.${c} ELSE ${t}.${c} END`)
    .join(",\n         ");
};

const outcomeWins = `EXCLUDED.review_outcome IS NOT NULL AND (o.review_outcome_at IS NULL OR EXCLUDED.review_outcome_at > o.review_outcome_at)`;

const statusWins = `EXCLUDED.invitation_status IS NOT NULL AND (
  e.invitation_status IS NULL
  OR (e.invitation_status = 'PENDING' AND EXCLUDED.invitation_status <> 'PENDING')
  OR (e.invitation_status <> 'PENDING' AND EXCLUDED.invitation_status <> 'PENDING'
      AND EXCLUDED.invitation_status_at > e.invitation_status_at))`;
