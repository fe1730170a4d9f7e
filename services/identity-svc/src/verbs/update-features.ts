import {
  FEATURE_DEFAULTS,
  type FeatureFlags,
  type UpdateFeatureFlagsRequest,
} from "@flowstate/contracts/rest/identity/tenants";
import { outboxInsert } from "@flowstate/shared/outbox/outbox-insert";
import { eventRow, now, type ServiceContext } from "../context.ts";
import type { LiveDoor } from "../doors/door-leases.ts";
import { table } from "../sql-table.ts";
import { toFlags } from "./get-features.ts";
import { inTenantTransaction } from "./lib/tenant-transaction.ts";

type ChangeRow = { stored: { flag: string; enabled: boolean }[]; changed: string[]; doors?: LiveDoor[] };

/**
 * Sets the given flags (admin or owner); one FeatureFlagChanged per flag that actually changed
 * (other gateway instances drop their cached flags on it). Four round trips
 * (write-round-trips.test.ts): BEGIN, the credential and tenant locks in one statement (with the
 * door set's, shared), one statement that compares, writes the changed flags with their events and
 * reads the doors to push to, COMMIT.
 */
export async function updateFeatures({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: UpdateFeatureFlagsRequest;
}): Promise<FeatureFlags> {
  const need = { minRole: "admin", apiKey: false } as const;
  const wanted = (Object.entries(input) as [keyof FeatureFlags, boolean | undefined][]).filter(
    (e): e is [keyof FeatureFlags, boolean] => typeof e[1] === "boolean",
  );
  return inTenantTransaction(
    ctx,
    tenantId,
    need,
    async (sql, { sub, doorsHeld }) => {
      if (wanted.length === 0) {
        return toFlags(
          await sql.execute(`SELECT flag, enabled FROM ${table(ctx, "feature_flag")} WHERE tenant_id = ?`, [tenantId]),
        );
      }
      const events = wanted.map(([flag, enabled]) => ({
        ...eventRow(
          ctx,
          "FeatureFlagChanged.v1",
          { tenant_id: tenantId, flag, enabled },
          { tenant_id: tenantId, subject: null },
        ),
        tag: flag,
      }));
      const outbox = outboxInsert(ctx.deps.schema, events, { keep: "e.tag IN (SELECT flag FROM changed)" });
      // The stored flags are read by this statement, not by the lock statement: its snapshot is taken
      // after the tenant lock was granted, so a change committed by whoever held it is seen (a
      // re-read of a locked row sees the latest version, a subquery in the same statement would not).
      // Only the flags whose value differs are written, and only their events enqueued.
      const [row] = await sql.execute<ChangeRow>(
        `WITH input(flag, enabled, fallback) AS (VALUES ${wanted.map(() => "(?, ?::boolean, ?::boolean)").join(", ")}),
              prev AS (SELECT f.flag, f.enabled FROM ${table(ctx, "feature_flag")} f WHERE f.tenant_id = ?),
              changed AS (
                INSERT INTO ${table(ctx, "feature_flag")} AS f (tenant_id, flag, enabled, updated_at, updated_by)
                SELECT ?, i.flag, i.enabled, ?::timestamptz, ? FROM input i LEFT JOIN prev p ON p.flag = i.flag
                 WHERE coalesce(p.enabled, i.fallback) <> i.enabled
                ON CONFLICT (tenant_id, flag) DO UPDATE
                  SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
                RETURNING f.flag
              ),
              ${outbox.sql}
         SELECT (SELECT coalesce(json_agg(json_build_object('flag', p.flag, 'enabled', p.enabled)), '[]'::json) FROM prev p) AS stored,
                (SELECT coalesce(json_agg(c.flag), '[]'::json) FROM changed c) AS changed${
                  doorsHeld ? `, ${ctx.deps.doors.leases.atCommit.liveJson} AS doors` : ""
                }`,
        [
          ...wanted.flatMap(([flag, enabled]) => [flag, enabled, FEATURE_DEFAULTS[flag]]),
          tenantId,
          tenantId,
          now(ctx).toISOString(),
          sub,
          ...outbox.params,
        ],
      );
      const current = toFlags(row!.stored);
      for (const [flag, enabled] of wanted) current[flag] = enabled;
      // Gateways cache flags for routes that declare a `feature`: they drop this tenant's before relaying.
      if (row!.changed.length > 0) {
        ctx.invalidations.push({ scope: "features", tenant_id: tenantId });
        if (row!.doors) ctx.doorsAtCommit = row!.doors;
      }
      return current;
    },
    { doors: true },
  );
}
