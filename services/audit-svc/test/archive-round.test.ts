import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { afterEach, describe, test } from "vitest";
import { ArchiveConflict, type ArchiverDeps, archiveRound } from "../src/archive/archive-round.ts";
import { recordedBatches } from "../src/archive/batch-store.ts";
import { encodeBatch, GENESIS_HASH } from "../src/archive/format.ts";
import { archiveKey } from "../src/archive/keys.ts";
import { archiveBacklog, registerArchiveMetrics } from "../src/archive/metrics.ts";
import { deleteArchivedRows } from "../src/archive/retention.ts";
import { verifyArchive } from "../src/archive/verify.ts";
import { domainEvent, newSub, newTenantId } from "../src/testing/events.ts";
import { type AuditHarness, startAuditHarness } from "../src/testing/harness.ts";
import { recordEvent } from "../src/verbs/record-event.ts";
import { createLockedArchiveBucket } from "./archive-fixtures.ts";
import { archivedRows, batchRows, liveRowIds, recordRows } from "./archive-helpers.ts";

const harnesses: AuditHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** A schema of its own, the bootstrap's locked bucket and a key prefix of its own for one test. */
async function setUp(batchMaxRows = 3) {
  const h = await startAuditHarness({ prefix: "archive" });
  harnesses.push(h);
  const deps: ArchiverDeps = {
    orm: h.orm,
    schema: h.schema,
    s3: h.aws.data("s3"),
    logger: h.logger,
    bucket: await createLockedArchiveBucket(h.aws),
    batchMaxRows,
    prefix: `t${randomBytes(4).toString("hex")}`,
  };
  const verify = async () =>
    verifyArchive({
      s3: deps.s3,
      bucket: deps.bucket,
      prefix: deps.prefix!,
      recorded: await h.inTransaction((em) => recordedBatches(em, h.schema)),
    });
  const archived = () => archivedRows(deps.s3, deps.bucket, deps.prefix!);
  return { h, deps, verify, archived };
}

/**
 * A delivery in flight: once this resolves its row id is taken (under the writers' shared lock),
 * and it commits only when `finish` is called; `done` settles with its transaction.
 */
async function writerInFlight(h: AuditHarness): Promise<{ finish: () => void; done: Promise<void> }> {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let taken!: () => void;
  const idTaken = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const done = h.inTransaction(async (em) => {
    const sub = newSub();
    await recordEvent(
      em,
      h.schema,
      domainEvent("MembershipAdded.v1", { tenant_id: newTenantId(), sub, role: "member" }, { subject: sub }),
      h.logger,
    );
    taken();
    await held;
  });
  await idTaken;
  return { finish, done };
}

const idsOf = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.id));

describe("archiving rounds", () => {
  test("archive every row once, in chained batches of at most the batch size, marked in the database", async () => {
    const { h, deps, verify, archived } = await setUp(3);
    // Ids that cross 99 → 100 inside a batch: ordering and ranges are numeric, never textual.
    await h.asOwner("SELECT setval('audit_row_id', 96)");
    await recordRows(h, 7);
    assert.deepEqual(await archiveRound(deps), { batches: 3, rows: 7, adopted: 0 });
    assert.deepEqual(await archiveRound(deps), { batches: 0, rows: 0, adopted: 0 }, "nothing new, nothing written");
    await recordRows(h, 2);
    assert.deepEqual(await archiveRound(deps), { batches: 1, rows: 2, adopted: 0 });

    assert.deepEqual(idsOf(await archived()), await liveRowIds(h));
    assert.deepEqual(
      (await batchRows(h)).map((b) => [b.seq, b.row_count]),
      [
        ["1", 3],
        ["2", 3],
        ["3", 1],
        ["4", 2],
      ],
    );
    const result = await verify();
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.ok && result.rows, 9);
  });

  test("past the ninth batch the sequence goes on numerically (a textual sort once stopped archiving at 10)", async () => {
    const { h, deps, verify } = await setUp(1);
    await recordRows(h, 11);
    assert.deepEqual(await archiveRound(deps), { batches: 11, rows: 11, adopted: 0 });
    await recordRows(h, 1);
    assert.deepEqual(await archiveRound(deps), { batches: 1, rows: 1, adopted: 0 });
    assert.deepEqual(
      (await batchRows(h)).map((b) => b.seq),
      Array.from({ length: 12 }, (_, i) => String(i + 1)),
    );
    const result = await verify();
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.ok && result.rows, 12);
  });

  test("lines carry the row's columns and its table; ids burned by duplicate deliveries leave gaps, not breaks", async () => {
    const { h, deps, verify, archived } = await setUp(10);
    const [eventId] = await recordRows(h, 1);
    // A redelivery: ON CONFLICT DO NOTHING takes an id from the sequence and writes nothing.
    await h.asOwner("SELECT nextval('audit_row_id'), nextval('audit_row_id')");
    await recordRows(h, 1);
    await archiveRound(deps);
    const rows = await archived();
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.table, "audit_event");
    assert.equal(rows[0]!.event_id, eventId);
    assert.equal(Number(rows[1]!.id) - Number(rows[0]!.id), 3);
    assert.match(String(rows[0]!.recorded_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
    assert.equal((await verify()).ok, true);
  });

  test("a row whose writer has not committed holds the round back instead of being skipped", async () => {
    const { h, deps, archived } = await setUp(10);
    await recordRows(h, 1);
    const { finish: commit, done: slow } = await writerInFlight(h);
    let settled = false;
    const round = archiveRound(deps).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(settled, false, "the round waits for the writer");
    commit();
    await slow;
    assert.deepEqual(await round, { batches: 1, rows: 2, adopted: 0 });
    assert.deepEqual(idsOf(await archived()), await liveRowIds(h));
  });

  test("a writer stuck in flight makes the round give up after the lock timeout, never stalls the others", async () => {
    const { h, deps, archived } = await setUp(10);
    await recordRows(h, 1);
    const { finish: release, done: stuck } = await writerInFlight(h);
    await assert.rejects(
      archiveRound({ ...deps, horizonLockTimeoutMs: 300 }),
      (err: { code?: string }) => err.code === "55P03", // lock_not_available
    );
    // Writers are not left queued behind the horizon: a new delivery commits at once.
    await recordRows(h, 1);
    assert.equal((await batchRows(h)).length, 0);
    release();
    await stuck;
    assert.deepEqual(await archiveRound(deps), { batches: 1, rows: 3, adopted: 0 });
    assert.deepEqual(idsOf(await archived()), await liveRowIds(h));
  });

  test("a batch written before a crash is adopted as it stands, even when rows arrived since", async () => {
    const { h, deps, verify, archived } = await setUp(5);
    await recordRows(h, 2);
    await assert.rejects(
      archiveRound({
        ...deps,
        afterPut: async () => {
          throw new Error("crash between the put and the mark");
        },
      }),
      /crash between/,
    );
    assert.equal((await batchRows(h)).length, 0, "nothing marked");
    await recordRows(h, 2);
    // Rebuilt now, batch 1 would hold four rows: the object standing there holds two, and is kept.
    assert.deepEqual(await archiveRound(deps), { batches: 2, rows: 4, adopted: 1 });
    assert.deepEqual(
      (await batchRows(h)).map((b) => b.row_count),
      [2, 2],
    );
    assert.deepEqual(idsOf(await archived()), await liveRowIds(h));
    assert.equal((await verify()).ok, true);
  });

  test("another object under the next key stops archiving: nothing overwritten, nothing marked", async () => {
    const { h, deps } = await setUp(5);
    await recordRows(h, 2);
    const [first] = await liveRowIds(h);
    const key = archiveKey(deps.prefix!, 1, new Date());
    const stranger = encodeBatch({
      seq: 1,
      key,
      afterId: "0",
      prevManifestSha256: GENESIS_HASH,
      rows: [{ id: first!, line: `{"id": ${first}, "table": "audit_event"}` }],
    });
    await deps.s3.send(new PutObjectCommand({ Bucket: deps.bucket, Key: key, Body: stranger.body }));
    await assert.rejects(archiveRound(deps), ArchiveConflict);
    assert.equal((await batchRows(h)).length, 0);
  });

  test("a second round while one is in flight stands aside; another schema's archive does not", async () => {
    const { h, deps, archived } = await setUp(2);
    const other = await setUp(2);
    await recordRows(h, 4);
    await recordRows(other.h, 1);
    const seen: (Awaited<ReturnType<typeof archiveRound>> | undefined)[] = [];
    // The other rounds start while the first holds its lock (between a put and its mark).
    const first = await archiveRound({
      ...deps,
      afterPut: async () => {
        if (seen.length === 0) seen.push(await archiveRound(deps), await archiveRound(other.deps));
      },
    });
    assert.deepEqual(seen, ["busy", { batches: 1, rows: 1, adopted: 0 }]);
    assert.deepEqual(first, { batches: 2, rows: 4, adopted: 0 });
    assert.deepEqual(idsOf(await archived()), await liveRowIds(h));
  });
});

describe("archive metrics", () => {
  test("the backlog gauges count rows above the last batch and the oldest one's age, and fall to 0", async () => {
    const { h, deps } = await setUp(10);
    const metrics = createMetrics();
    registerArchiveMetrics(metrics, { orm: h.orm, schema: h.schema });
    assert.deepEqual(await archiveBacklog(h.orm, h.schema), { rows: 0, ageSeconds: 0 });
    await recordRows(h, 3);
    await new Promise((r) => setTimeout(r, 1100));
    const pending = await archiveBacklog(h.orm, h.schema);
    assert.equal(pending.rows, 3);
    assert.ok(pending.ageSeconds >= 1, `lag ${pending.ageSeconds}`);
    assert.match(await metrics.render(), /^audit_archive_pending_rows 3$/m);
    await archiveRound(deps);
    assert.deepEqual(await archiveBacklog(h.orm, h.schema), { rows: 0, ageSeconds: 0 });
    assert.match(await metrics.render(), /^audit_archive_lag_seconds 0$/m);
  });
});

describe("live retention", () => {
  test("deletes rows past the window only once they are archived; the archive keeps them", async () => {
    const { h, deps, verify, archived } = await setUp(10);
    const old = new Date(Date.now() - 500 * 86_400_000);
    await recordRows(h, 3, old);
    await recordRows(h, 2);
    const retention = { orm: h.orm, schema: h.schema, windowDays: 400 };
    assert.equal(await deleteArchivedRows(retention), 0, "not archived yet: kept however old");
    assert.deepEqual(await archiveRound(deps), { batches: 1, rows: 5, adopted: 0 });
    const before = await liveRowIds(h);
    assert.equal(await deleteArchivedRows({ ...retention, perCall: 2 }), 3);
    const after = await liveRowIds(h);
    assert.deepEqual(after, before.slice(3));
    assert.equal((await archived()).length, 5);
    assert.equal((await verify()).ok, true);
    // Deleted rows stay covered by their batch: the next round starts after it, nothing re-archived.
    assert.deepEqual(await archiveRound(deps), { batches: 0, rows: 0, adopted: 0 });
  });

  test("a window shorter than the owner's minimum is refused", async () => {
    const { h } = await setUp();
    await assert.rejects(
      deleteArchivedRows({ orm: h.orm, schema: h.schema, windowDays: 30 }),
      /shorter than the owner/,
    );
  });
});
