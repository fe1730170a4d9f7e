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
  const lockKey = `hashtext('flowstate.door_lease'), hashtext('${schema}')`;
  return {
    /**
     * SQL for a write transaction that reads the doors to push to before it commits rather than
     * after (one round trip fewer, issue 26). `holdShared` is an expression to put in the
     * transaction's FIRST statement: it takes the door set's lock, shared, until commit. `liveJson`
     * is an expression for a LATER statement (its snapshot must be taken once the lock is held): the
     * live doors, as JSON. Why that list is as good as one read after commit: every renewal takes
     * the same lock exclusively (`renew`), so a lease that becomes live while the transaction runs
     * waits for its commit; a door whose lease is live only after that drops every cached fact when
     * it gets the renewal's answer (edge-gateway lease/door-lease.ts), so it holds nothing this
     * commit made stale. A lease that ends meanwhile is pushed to anyway (an ack or an eviction).
     */
    atCommit: {
      holdShared: `pg_advisory_xact_lock_shared(${lockKey})`,
      liveJson: `(SELECT coalesce(json_agg(json_build_object('instanceId', d.instance_id, 'pushUrl', d.push_url)), '[]'::json)
                    FROM ${table} d WHERE d.lease_until > clock_timestamp())`,
    },
    /**
     * Registers or extends the lease to now + leaseMs; `registered` is true when no row existed (a
     * new instance, or one evicted since its last renewal). Expired rows are pruned on each
     * registration, which is rare (once per instance start or eviction). Under the door set's lock,
     * exclusive (`atCommit`): it waits for the writes that read the doors before their commit, which
     * hold it shared, and they are short.
     */
    async renew(instanceId: DoorInstanceId, pushUrl: string, leaseMs: number): Promise<{ registered: boolean }> {
      const [row] = await sql<{ registered: boolean }>(
        `WITH held AS (SELECT pg_advisory_xact_lock(${lockKey}))
         INSERT INTO ${table} AS d (instance_id, push_url, lease_until, registered_at)
         SELECT ?, ?, clock_timestamp() + ? * interval '1 millisecond', clock_timestamp() FROM held
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
