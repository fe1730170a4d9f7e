import type {
  ExportedMembership,
  ExportedProfile,
  PersonalDataCategory,
} from "@flowstate/contracts/internal/personal-data";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";
import { NotificationPreferencesRow, User } from "../db/entities.ts";
import { withDefaults } from "./get-notification-preferences.ts";
import { toProfile } from "./get-profile.ts";

/** Memberships read per statement: a user with thousands of tenants is streamed, never loaded whole. */
const PAGE = 500;

type MembershipRow = {
  tenant_id: string;
  tenant_name: string;
  tenant_status: string;
  role: string;
  since: Date;
  /** created_at as PostgreSQL prints it: microseconds, which a JS Date would round away. */
  cursor: string;
};

/**
 * identity-svc's part of a personal-data export (contracts/src/internal/personal-data.ts): the
 * user's profile, their own memberships (tenant id and name, role, since; never the other members)
 * and their notification preferences. Only privacy-svc may ask. A deleted or unknown account is
 * 404, decided before the first record so the route can still answer with a problem.
 *
 * @example
 * for await (const record of await personalData({ ctx, sub, category: "memberships" })) write(record);
 */
export async function personalData({
  ctx,
  sub,
  category,
}: {
  ctx: ServiceContext;
  sub: string;
  category: PersonalDataCategory;
}): Promise<AsyncIterable<unknown>> {
  const a = ctx.actor;
  if (a.kind !== "service" || a.service !== "privacy-svc") {
    throw new DomainError("forbidden", "FORBIDDEN", "only privacy-svc gathers personal data");
  }
  const user = await ctx.em.findOne(User, { sub });
  // Its own code: privacy-svc cancels the export on it, and must not on any other 404.
  if (user?.status !== "active") throw new DomainError("not_found", "ACCOUNT_GONE", "the account was not found");
  switch (category) {
    case "profile":
      return one<ExportedProfile>(toProfile(user));
    case "notification_preferences": {
      const row = await ctx.em.findOne(NotificationPreferencesRow, { sub });
      return one(withDefaults(row?.preferences));
    }
    case "memberships":
      return memberships(ctx, sub);
    default:
      // A category of another service (the route only routes identity's own).
      throw notFound("category");
  }
}

async function* one<T>(record: T): AsyncIterable<T> {
  yield record;
}

/**
 * Keyset pages over (created_at, tenant_id): each page is one short statement, no cursor held open.
 * The page boundary is PostgreSQL's own text of created_at (microseconds), so rows that share a
 * millisecond are neither repeated nor skipped.
 */
async function* memberships(ctx: ServiceContext, sub: string): AsyncIterable<ExportedMembership> {
  const sql = `SELECT m.tenant_id, t.name AS tenant_name, t.status AS tenant_status, m.role, m.created_at AS since,
                      m.created_at::text AS cursor
                 FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id
                WHERE m.sub = ? AND (m.created_at, m.tenant_id) > (?::timestamptz, ?)
                ORDER BY m.created_at, m.tenant_id LIMIT ${PAGE}`;
  let after: [string, string] = ["-infinity", ""];
  for (;;) {
    const rows = await ctx.deps.orm.em.fork().execute<MembershipRow[]>(sql, [sub, ...after]);
    for (const r of rows) {
      yield {
        tenant_id: r.tenant_id,
        tenant_name: r.tenant_name,
        tenant_status: r.tenant_status as ExportedMembership["tenant_status"],
        role: r.role as ExportedMembership["role"],
        since: new Date(r.since).toISOString(),
      };
    }
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = [last.cursor, last.tenant_id];
  }
}
