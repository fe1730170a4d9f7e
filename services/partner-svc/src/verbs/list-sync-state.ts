import type {
  PartnerEngagement,
  PartnerListQuery,
  PartnerOpportunity,
} from "@flowstate/contracts/rest/partner/sync-state";
import { cursorText, cursorTimestamp, pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import type { EntityManager } from "@mikro-orm/postgresql";
import { z } from "zod";

type Row = Record<string, unknown> & { last_event_at: string | Date; key: string };

// Raw queries answer timestamptz as PostgreSQL's text ('2026-11-23 10:04:00+00'); the API speaks RFC 3339.
const iso = (v: unknown) => new Date(v as string).toISOString();

/** A position: the last row's `last_event_at` (RFC 3339) and key (an upstream id). */
const cursor = pageCursorCodec(z.tuple([cursorTimestamp, cursorText]));
const encode = (row: Row) => cursor.encode([iso(row.last_event_at), row.key]);

/** The position `query.cursor` names, null on a first page, or 400 INVALID_CURSOR when it is not one of ours. */
export const positionOf = (query: PartnerListQuery): [string, string] | null =>
  query.cursor ? cursor.decode(query.cursor) : null;

/**
 * One page of a tenant's rows, newest event first; keyset pagination on (last_event_at, key), so a
 * page never repeats or skips a row while events keep arriving below it.
 */
async function page(
  em: EntityManager,
  sql: { table: string; key: string },
  tenantId: string,
  query: PartnerListQuery,
  after: [string, string] | null,
): Promise<{ rows: Row[]; next_cursor: string | null }> {
  const rows = await em.execute<Row[]>(
    `SELECT *, ${sql.key} AS key FROM ${sql.table}
      WHERE tenant_id = ? ${after ? `AND (last_event_at, ${sql.key}) < (?::timestamptz, ?)` : ""}
      ORDER BY last_event_at DESC, ${sql.key} DESC LIMIT ?`,
    [tenantId, ...(after ?? []), query.limit + 1],
  );
  const more = rows.length > query.limit;
  const items = more ? rows.slice(0, query.limit) : rows;
  return { rows: items, next_cursor: more ? encode(items[items.length - 1]!) : null };
}

/** The list verb of one sync-state table: a page of the tenant's rows (`page`), each shown by `view`. */
const listOf =
  <T>(table: string, key: string, view: (row: Row) => T) =>
  async (
    em: EntityManager,
    schema: string,
    tenantId: string,
    query: PartnerListQuery,
    after: [string, string] | null,
  ): Promise<{ items: T[]; next_cursor: string | null }> => {
    const { rows, next_cursor } = await page(em, { table: `"${schema}".${table}`, key }, tenantId, query, after);
    return { items: rows.map(view), next_cursor };
  };

export const listOpportunities = listOf(
  "partner_opportunity",
  "opportunity_id",
  (r) =>
    ({
      opportunity_id: r.opportunity_id,
      catalog: r.catalog,
      account_id: r.account_id,
      review_outcome: r.review_outcome ?? null,
      last_event_type: r.last_event_type,
      last_event_at: iso(r.last_event_at),
      first_seen_at: iso(r.first_seen_at),
      updated_at: iso(r.updated_at),
    }) as PartnerOpportunity,
);

export const listEngagements = listOf(
  "partner_engagement",
  "engagement_id",
  (r) =>
    ({
      engagement_id: r.engagement_id,
      catalog: r.catalog,
      account_id: r.account_id,
      invitation_id: r.invitation_id ?? null,
      invitation_status: r.invitation_status ?? null,
      opportunity_ids: r.opportunity_ids,
      last_event_type: r.last_event_type,
      last_event_at: iso(r.last_event_at),
      first_seen_at: iso(r.first_seen_at),
      updated_at: iso(r.updated_at),
    }) as PartnerEngagement,
);
