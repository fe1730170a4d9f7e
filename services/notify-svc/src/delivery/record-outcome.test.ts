import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { holdLocks } from "@flowstate/shared/testing/held-locks";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type NotifyHarness, startNotifySvc } from "../testing/harness.ts";
import type { Due } from "./claim.ts";
import { recordOutcome } from "./record-outcome.ts";

/**
 * Two failed attempts of one endpoint recorded at once, the first of which disables it (a round
 * attempts up to 20 deliveries in parallel). Made to meet every time: another transaction holds
 * the endpoint's row until both outcomes wait for it. They once deadlocked there (each held its
 * own delivery; the disabling one then wanted the other's to close it), and an outcome recorded
 * after the disabling put its delivery back to pending, to be sent to the disabled endpoint.
 */
let h: NotifyHarness;
beforeAll(async () => {
  // One failure over a streak older than the window disables.
  h = await startNotifySvc({ prefix: "outcome_race", delivery: { disableAfterFailures: 1, retryWindowMs: 60_000 } });
});
afterAll(() => h.close());

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  h.db.orm.em.fork().execute<T[]>(query.replaceAll("$s", `"${h.db.schema}"`), params);
const failed = { ok: false as const, status: 503, error: "HTTP 503" };

/** An endpoint failing for two minutes, and `n` deliveries of it in flight (claimed, leased for an hour so the worker leaves them). */
async function failingEndpoint(n: number): Promise<{ endpointId: string; due: Due[] }> {
  const t = `tnt_${randomBytes(8).toString("hex")}`;
  const res = await h.call("POST", `/v1/tenants/${t}/notifications/endpoints`, {
    as: { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" },
    body: { url: "http://127.0.0.1:9/h" },
  });
  assert.equal(res.status, 201);
  const { id: endpointId } = JSON.parse(await res.text()) as { id: string };
  await sql("UPDATE $s.endpoint SET failures = 3, failing_since = now() - interval '2 minutes' WHERE id = ?", [
    endpointId,
  ]);
  const due: Due[] = [];
  for (let i = 0; i < n; i++) {
    const id = await h.seedDelivery(t, endpointId);
    await sql(
      `UPDATE $s.delivery SET status = 'pending', delivered_at = NULL, attempts = 0,
              next_attempt_at = now(), locked_until = now() + interval '1 hour' WHERE id = ?`,
      [id],
    );
    const [row] = await sql<{ message_id: string }>("SELECT message_id FROM $s.delivery WHERE id = ?", [id]);
    due.push({
      id,
      tenant_id: t,
      endpoint_id: endpointId,
      message_id: row!.message_id,
      attempts: 0,
      body: "{}",
      kind: "webhook",
      url: "http://127.0.0.1:9/h",
      secret: null,
      previous_secret: null,
      previous_valid_until: null,
    });
  }
  return { endpointId, due };
}

const statuses = async (endpointId: string) =>
  (await sql<{ status: string }>("SELECT status FROM $s.delivery WHERE endpoint_id = ? ORDER BY id", [endpointId])).map(
    (r) => r.status,
  );

describe("an attempt's outcome", () => {
  it("two failures of one endpoint recorded at once: one disables it, neither deadlocks, both deliveries close", async () => {
    const { endpointId, due } = await failingEndpoint(2);
    const held = await holdLocks(h.db);
    let outcomes: Promise<PromiseSettledResult<{ disabled: boolean }>[]> | undefined;
    try {
      await held.em.execute(`SELECT 1 FROM "${h.db.schema}".endpoint WHERE id = ? FOR UPDATE`, [endpointId]);
      outcomes = Promise.allSettled(due.map((d) => recordOutcome(h.deps, d, failed)));
      await held.waiters(2, "the two outcomes both wait for the endpoint");
      await held.commit();
    } finally {
      await held.close();
    }
    const settled = await outcomes!;
    const errors = settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
    assert.deepEqual(errors, [], "no outcome failed");
    const disabled = settled.map((s) => (s.status === "fulfilled" ? s.value.disabled : undefined));
    assert.deepEqual([...disabled].sort(), [false, true], "exactly one of them disabled the endpoint");
    const [endpoint] = await sql<{ status: string }>("SELECT status FROM $s.endpoint WHERE id = ?", [endpointId]);
    assert.equal(endpoint?.status, "disabled");
    assert.deepEqual(await statuses(endpointId), ["failed", "failed"]);
    const notices = await sql<{ n: number }>("SELECT count(*)::int AS n FROM $s.admin_notice WHERE endpoint_id = ?", [
      endpointId,
    ]);
    assert.equal(notices[0]?.n, 1, "the admins are told once");
  });

  it("a failure recorded after its endpoint was disabled closes the delivery instead of retrying it", async () => {
    const { endpointId, due } = await failingEndpoint(2);
    assert.deepEqual(await recordOutcome(h.deps, due[0]!, failed), { disabled: true });
    // The second was in flight when the first disabled the endpoint: the disabling closed it, and
    // its own failure must not open it again.
    assert.deepEqual(await statuses(endpointId), ["failed", "failed"]);
    assert.deepEqual(await recordOutcome(h.deps, due[1]!, failed), { disabled: false });
    assert.deepEqual(await statuses(endpointId), ["failed", "failed"]);
    const [row] = await sql<{ next_attempt_at: string | null; attempts: number }>(
      "SELECT next_attempt_at, attempts FROM $s.delivery WHERE id = ?",
      [due[1]!.id],
    );
    assert.deepEqual(row, { next_attempt_at: null, attempts: 1 });
  });
});
