import assert from "node:assert/strict";
import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { uniqueKey, waitFor } from "../consumer/test-events.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createLogger } from "../log/logger.ts";
import { enqueueEvent } from "./enqueue-event.ts";
import { systemActor } from "./event-actor.ts";
import {
  emitOutboxLag,
  OUTBOX_BACKLOG_METRIC,
  OUTBOX_LAG_DIMENSION,
  OUTBOX_LAG_NAMESPACE,
  OUTBOX_OLDEST_PENDING_AGE_METRIC,
} from "./lag-metric.ts";
import { startOutboxRelay } from "./relay.ts";

const eventBridge = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge");
const logger = createLogger({ service: "lag-metric-test" });
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function database(prefix: string): Promise<TestDatabase> {
  const db = await openTestDatabase({ prefix });
  cleanups.push(() => db.close());
  return db;
}

/** An outbox row committed `ageSeconds` ago (database clock), in the given state. */
async function row(db: TestDatabase, ageSeconds: number, state: "pending" | "sent" | "failed" = "pending") {
  const event = await db.orm.em
    .fork()
    .transactional((em: EntityManager) =>
      enqueueEvent(
        em,
        "PlatformProbe.v1",
        { key: uniqueKey("lag"), seq: 1 },
        { source: "flowstate.platform-test", actor: systemActor("platform-test") },
        testEventCatalog,
      ),
    );
  await db.orm.em.fork().execute(
    `UPDATE "${db.schema}".outbox_event
        SET created_at = now() - ? * interval '1 second',
            sent_at = CASE WHEN ? = 'sent' THEN now() END,
            failed_at = CASE WHEN ? = 'failed' THEN now() END
      WHERE id = ?`,
    [ageSeconds, state, state, event.id],
  );
}

/**
 * What CloudWatch Logs needs to extract metrics from a line (the EMF specification): one JSON
 * object; `_aws.Timestamp` in epoch milliseconds; per directive a namespace, dimension sets whose
 * names are string members of the root, and metrics whose names are numeric members of the root.
 */
function assertEmf(line: string): Record<string, unknown> {
  assert.ok(!line.includes("\n"), "one line");
  const doc = JSON.parse(line) as Record<string, unknown>;
  const aws = doc._aws as { Timestamp: unknown; CloudWatchMetrics: unknown };
  assert.equal(typeof aws, "object");
  assert.ok(Number.isInteger(aws.Timestamp) && Math.abs((aws.Timestamp as number) - Date.now()) < 60_000);
  assert.ok(Array.isArray(aws.CloudWatchMetrics) && aws.CloudWatchMetrics.length > 0);
  for (const directive of aws.CloudWatchMetrics as Record<string, unknown>[]) {
    assert.ok(typeof directive.Namespace === "string" && directive.Namespace.length > 0);
    for (const set of directive.Dimensions as string[][])
      for (const name of set) assert.equal(typeof doc[name], "string", `dimension ${name} is a root member`);
    const metrics = directive.Metrics as { Name: string; Unit?: string }[];
    assert.ok(metrics.length > 0);
    for (const m of metrics) assert.equal(typeof doc[m.Name], "number", `metric ${m.Name} is a root member`);
  }
  return doc;
}

describe("the outbox lag metric", () => {
  it("writes one EMF line with the age of the oldest unsent row and the backlog, sent and failed rows left out", async () => {
    const db = await database("lag_age");
    await row(db, 600);
    await row(db, 5);
    await row(db, 3600, "sent");
    await row(db, 7200, "failed");
    const lines: string[] = [];
    await emitOutboxLag({ em: db.orm.em.fork(), schema: db.schema, service: "probe-svc", write: (l) => lines.push(l) });

    assert.equal(lines.length, 1);
    const doc = assertEmf(lines[0]!);
    const age = doc[OUTBOX_OLDEST_PENDING_AGE_METRIC] as number;
    assert.ok(age >= 600 && age < 660, `age ${age}`);
    assert.equal(doc[OUTBOX_BACKLOG_METRIC], 2);
    assert.equal(doc[OUTBOX_LAG_DIMENSION], "probe-svc");
    const [directive] = (doc._aws as { CloudWatchMetrics: Record<string, unknown>[] }).CloudWatchMetrics;
    assert.equal(directive!.Namespace, OUTBOX_LAG_NAMESPACE);
    assert.deepEqual(directive!.Dimensions, [[OUTBOX_LAG_DIMENSION]]);
    assert.deepEqual(directive!.Metrics, [
      { Name: OUTBOX_OLDEST_PENDING_AGE_METRIC, Unit: "Seconds" },
      { Name: OUTBOX_BACKLOG_METRIC, Unit: "Count" },
    ]);
  });

  it("reports 0 seconds and 0 rows when nothing is pending, not a missing value", async () => {
    const db = await database("lag_empty");
    await row(db, 900, "sent");
    const lines: string[] = [];
    await emitOutboxLag({ em: db.orm.em.fork(), schema: db.schema, service: "probe-svc", write: (l) => lines.push(l) });
    const doc = assertEmf(lines[0]!);
    assert.equal(doc[OUTBOX_OLDEST_PENDING_AGE_METRIC], 0);
    assert.equal(doc[OUTBOX_BACKLOG_METRIC], 0);
  });

  it("is written by the relay every intervalMs while its rounds fail, and no more once it stops", async () => {
    const db = await database("lag_relay");
    await row(db, 120);
    const lines: string[] = [];
    // No such bus: every round fails, the row stays pending and its age keeps growing.
    const relay = startOutboxRelay({
      orm: db.orm,
      eventBridge,
      busName: "t-no-such-bus",
      logger,
      pollIntervalMs: 100,
      lagMetric: { service: "probe-svc", intervalMs: 50, write: (l) => lines.push(l) },
    });
    cleanups.push(() => relay.stop());
    await waitFor(async () => lines.length >= 3 || undefined, 10_000, "three lag lines");
    await relay.stop();
    const written = lines.length;
    const last = assertEmf(lines.at(-1)!);
    assert.equal(last[OUTBOX_BACKLOG_METRIC], 1);
    assert.ok((last[OUTBOX_OLDEST_PENDING_AGE_METRIC] as number) >= 120);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(lines.length, written, "nothing after stop()");
  });

  it("is not written by a relay started without it", async () => {
    const db = await database("lag_off");
    await row(db, 120);
    const lines: string[] = [];
    const relay = startOutboxRelay({
      orm: db.orm,
      eventBridge,
      busName: "t-no-such-bus",
      logger,
      pollIntervalMs: 100,
      lagMetric: { service: "probe-svc", intervalMs: 0, write: (l) => lines.push(l) },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await relay.stop();
    assert.deepEqual(lines, []);
  });
});
