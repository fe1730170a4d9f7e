/**
 * The audit archive (issue 11): how fast archiving rounds move live audit rows into the Object Lock
 * bucket, end to end (read as archive lines under the horizon, gzip and hash, conditional PutObject
 * into moto's COMPLIANCE bucket, the database mark), and how fast `verify` walks the result.
 * Baseline: the same rows only read from PostgreSQL as archive lines (the floor of any round).
 *
 * The rows are realistic audit_event rows (actor and target sub, tenant, request id, a small summary)
 * inserted in bulk as the insert-only role, under the writers' lock, before the clock starts.
 */
import { randomBytes } from "node:crypto";
import { archiveRound } from "@flowstate/audit-svc/archive/archive-round";
import { archiveHorizon, recordedBatches, rowsAfter } from "@flowstate/audit-svc/archive/batch-store";
import { ARCHIVE_PREFIX } from "@flowstate/audit-svc/archive/keys";
import { verifyArchive } from "@flowstate/audit-svc/archive/verify";
import { createLockedArchiveBucket } from "@flowstate/audit-svc/testing/archive-fixtures";
import { startAuditHarness } from "@flowstate/audit-svc/testing/harness";
import { type Moto, startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import type { BenchRow } from "./lib/types.ts";

const ROWS = 20_000;
const BATCH = 1_000;

export default async function auditArchiveBench(): Promise<BenchRow[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_bench";
  await ensurePostgres(adminUrl);
  await ensureDatabase(adminUrl);
  let moto: Moto | undefined;
  if (!process.env.AWS_ENDPOINT_URL) {
    moto = await startMoto();
    process.env.AWS_ENDPOINT_URL = moto.endpoint;
  }
  process.env.AWS_ACCESS_KEY_ID ??= "testing";
  process.env.AWS_SECRET_ACCESS_KEY ??= "testing";
  const h = await startAuditHarness({ prefix: "bench_archive", adminUrl });
  try {
    const s3 = h.aws.data("s3");
    const bucket = await createLockedArchiveBucket(h.aws);
    const tag = randomBytes(4).toString("hex");
    await h.inTransaction((em) =>
      em.execute(
        `INSERT INTO "${h.schema}".audit_event (id, event_id, event_type, event_version, occurred_at, source, tenant_id,
           actor_kind, actor_sub, target_sub, request_id, summary)
         SELECT nextval('"${h.schema}".audit_row_id'), 'evt_${tag}_' || g, 'MembershipAdded', 1, now() - interval '1 day',
                'flowstate.identity', 'tnt_' || substr(md5('t' || (g % 50)), 1, 24), 'user',
                'usr_' || substr(md5('a' || g), 1, 24), 'usr_' || substr(md5('b' || g), 1, 24),
                'req_' || substr(md5('r' || g), 1, 20), '{"role": "member"}'::jsonb
           FROM (SELECT pg_advisory_xact_lock_shared(k[1], k[2]) FROM "${h.schema}".audit_row_lock_key() AS k) AS held,
                generate_series(1, ${ROWS}) AS g`,
      ),
    );

    const readStarted = performance.now();
    const horizon = await archiveHorizon(h.orm.em.fork(), h.schema);
    let afterId = "0";
    for (;;) {
      const rows = await rowsAfter(h.orm.em.fork(), h.schema, { afterId, upTo: horizon, limit: BATCH });
      if (rows.length === 0) break;
      afterId = rows.at(-1)!.id;
    }
    const readRate = ROWS / ((performance.now() - readStarted) / 1000);

    const started = performance.now();
    const round = await archiveRound({
      orm: h.orm,
      schema: h.schema,
      s3,
      logger: h.logger,
      bucket,
      batchMaxRows: BATCH,
    });
    const archiveSeconds = (performance.now() - started) / 1000;
    if (round === "busy" || round.rows !== ROWS) throw new Error(`archived ${JSON.stringify(round)}, not ${ROWS} rows`);

    const verifyStarted = performance.now();
    const verified = await verifyArchive({
      s3,
      bucket,
      prefix: ARCHIVE_PREFIX,
      recorded: await h.inTransaction((em) => recordedBatches(em, h.schema)),
    });
    const verifySeconds = (performance.now() - verifyStarted) / 1000;
    if (!verified.ok) throw new Error(`verify failed: ${JSON.stringify(verified.break)}`);

    const rate = ROWS / archiveSeconds;
    return [
      {
        name: `audit-svc: archive rows/s (${ROWS} rows, batches of ${BATCH}, moto Object Lock bucket)`,
        value: Math.round(rate),
        unit: "rows/s",
        baseline: { name: "the same rows only read as archive lines", value: Math.round(readRate) },
        ratio: rate / readRate,
      },
      {
        name: "audit-svc: verify rows/s (the same archive, with the database's records)",
        value: Math.round(ROWS / verifySeconds),
        unit: "rows/s",
      },
    ];
  } finally {
    await h.close();
    await moto?.stop();
  }
}
