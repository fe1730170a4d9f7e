import type { DoorInstanceId } from "@flowstate/contracts/internal/doors";
import type { Database } from "@flowstate/shared/db/open-database";

/** One door instance with a live lease, as the pusher needs it. */
export interface LiveDoor {
  instanceId: string;
  pushUrl: string;
}

/**
 * The `door_lease` table (ADR 0011). Every instant is the database's `clock_timestamp()`, so
 * several identity-svc instances agree on which leases are live without trusting each other's
 * clocks; a door never compares its clock with these: it counts its lease on its own clock from
 * when it sent the renewal, which is always before the row was written.
 *
 * @example
 * const leases = doorLeases(orm, "identity");
 * await leases.renew("edge-gateway-0a1b2c3d", "http://10.0.1.7:9080", 4_000); // { registered: true }
 */
export function doorLeases(orm: Database, schema: string) {
  const table = `"${schema}"."door_lease"`;
  const sql = <T>(query: string, params: unknown[]) => orm.em.getConnection().execute<T[]>(query, params, "all");
  return {
    /**
     * Registers or extends the lease to now + leaseMs; `registered` is true when no row existed (a
     * new instance, or one evicted since its last renewal). Expired rows are pruned on each
     * registration, which is rare (once per instance start or eviction).
     */
    async renew(instanceId: DoorInstanceId, pushUrl: string, leaseMs: number): Promise<{ registered: boolean }> {
      const [row] = await sql<{ registered: boolean }>(
        `INSERT INTO ${table} AS d (instance_id, push_url, lease_until, registered_at)
         VALUES (?, ?, clock_timestamp() + ? * interval '1 millisecond', clock_timestamp())
         ON CONFLICT (instance_id) DO UPDATE SET push_url = EXCLUDED.push_url, lease_until = EXCLUDED.lease_until
         RETURNING (xmax = 0) AS registered`,
        [instanceId, pushUrl, leaseMs],
      );
      const registered = row?.registered === true;
      if (registered) await sql(`DELETE FROM ${table} WHERE lease_until < clock_timestamp() - interval '1 hour'`, []);
      return { registered };
    },
    async leave(instanceId: DoorInstanceId): Promise<void> {
      await sql(`DELETE FROM ${table} WHERE instance_id = ?`, [instanceId]);
    },
    live(): Promise<LiveDoor[]> {
      return sql<LiveDoor>(
        `SELECT instance_id AS "instanceId", push_url AS "pushUrl" FROM ${table} WHERE lease_until > clock_timestamp()`,
        [],
      );
    },
    /**
     * Deletes the instance's lease and answers how long it still had to run (ms, ≥ 0): the door
     * trusts its caches at most that long, so a revoking call waits that long before answering.
     * RETURNING reads the row as deleted, so a renewal that landed after `live()` is counted.
     */
    async evict(instanceId: string): Promise<number> {
      const [row] = await sql<{ remaining_ms: number | string }>(
        `DELETE FROM ${table} WHERE instance_id = ?
         RETURNING GREATEST(0, EXTRACT(EPOCH FROM lease_until - clock_timestamp()) * 1000) AS remaining_ms`,
        [instanceId],
      );
      return row ? Math.ceil(Number(row.remaining_ms)) : 0;
    },
  };
}
export type DoorLeases = ReturnType<typeof doorLeases>;
