import type { S3Client } from "@aws-sdk/client-s3";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { EntityManager } from "@mikro-orm/postgresql";
import { archiveHead, archiveHorizon, markArchived, rowsAfter } from "./batch-store.ts";
import { type DecodedObject, type EncodedBatch, encodeBatch } from "./format.ts";
import { ARCHIVE_PREFIX, archiveKey } from "./keys.ts";
import { putArchiveObject } from "./put-object.ts";

/** An object already stands under a batch's key and is not that batch: nothing is overwritten or marked. */
export class ArchiveConflict extends Error {
  override name = "ArchiveConflict";
}

export interface ArchiverDeps {
  orm: Database;
  schema: string;
  s3: S3Client;
  logger: Logger;
  bucket: string;
  batchMaxRows: number;
  /** The key prefix in the bucket; ARCHIVE_PREFIX unless a test keeps apart. */
  prefix?: string;
  /** How long the horizon may wait for writers in flight (they queue behind it meanwhile); 5 s by default. */
  horizonLockTimeoutMs?: number;
  /** Test seam for the crash test: runs after S3 confirmed the object, before the database mark. */
  afterPut?: (batch: EncodedBatch) => Promise<void>;
}

export interface RoundResult {
  batches: number;
  rows: number;
  /** Batches found already in the bucket (written before a crash) and only marked now. */
  adopted: number;
}

/**
 * Advisory lock key of the archiver: one round at a time across every replica of audit-svc, per
 * schema. The schema is the one given, not current_schema(): the service's connection has no
 * search_path of its own, so current_schema() named the same schema for every archive on the
 * server (seen as one test's archive answering "busy" while another test's service archived).
 */
const ROUND_LOCK = "hashtext('flowstate.audit.archiver'), hashtext(?)";

/**
 * One archiving round: every row at or below the horizon goes to the bucket, in batches of at most
 * `batchMaxRows`, each object confirmed by S3 before its `audit_archive_batch` row is written.
 *
 * Crash safety. A batch is fully determined by the database: batch n starts right after batch
 * n-1's last id (rows at or below the horizon can no longer appear or change) and its key by n and
 * the day of its first row. A crash after the put and before the mark leaves an object the database
 * does not know; the next round builds batch n again, finds the key taken (conditional write) and
 * reads what is there. The object covers the same start, so its rows are rebuilt from the database
 * for exactly its id range: if they hash to its manifest, it is marked as is ("adopted", never
 * written twice), even when more rows have arrived since; the next batch starts after it. Anything
 * else under the key is an ArchiveConflict, and archiving stops there for a person to look.
 *
 * Rounds are serialised across replicas by an advisory lock held in the round's transaction, which
 * also writes the marks; the horizon is taken in a transaction of its own (it pauses writers).
 */
export async function archiveRound(deps: ArchiverDeps): Promise<RoundResult | "busy"> {
  const { schema, logger } = deps;
  const prefix = deps.prefix ?? ARCHIVE_PREFIX;
  return deps.orm.em.fork().transactional(async (em) => {
    const [lock] = await em.execute<{ ok: boolean }[]>(`SELECT pg_try_advisory_xact_lock(${ROUND_LOCK}) AS ok`, [
      schema,
    ]);
    if (!lock?.ok) return "busy";
    const horizon = await archiveHorizon(deps.orm.em.fork(), schema, deps.horizonLockTimeoutMs);
    const result: RoundResult = { batches: 0, rows: 0, adopted: 0 };
    let head = await archiveHead(em, schema);
    for (;;) {
      const rows = await rowsAfter(em, schema, { afterId: head.afterId, upTo: horizon, limit: deps.batchMaxRows });
      if (rows.length === 0) return result;
      const key = archiveKey(prefix, head.nextSeq, rows[0]!.recordedAt);
      let batch = encodeBatch({
        seq: head.nextSeq,
        key,
        afterId: head.afterId,
        prevManifestSha256: head.prevManifestSha256,
        rows,
      });
      const put = await putArchiveObject(deps.s3, deps.bucket, batch);
      if (put.outcome === "exists") {
        batch = await adopt(em, deps, batch, put.existing);
        result.adopted++;
      }
      await deps.afterPut?.(batch);
      await markArchived(em, schema, batch.manifest, batch.manifestSha256);
      const m = batch.manifest;
      logger.info(
        { seq: m.seq, key: m.key, first_id: m.first_id, last_id: m.last_id, rows: m.count },
        "audit batch archived",
      );
      result.batches++;
      result.rows += m.count;
      head = { nextSeq: m.seq + 1, afterId: m.last_id, prevManifestSha256: batch.manifestSha256 };
    }
  });
}

/**
 * The object under batch n's key when the conditional write found one: rebuilt from the database
 * for its own id range, it must be byte for byte what the database holds (same manifest hash).
 */
async function adopt(
  em: EntityManager,
  deps: ArchiverDeps,
  wanted: EncodedBatch,
  existing: DecodedObject | undefined,
): Promise<EncodedBatch> {
  const want = wanted.manifest;
  const m = existing?.manifest;
  const conflict = (why: string) =>
    new ArchiveConflict(
      `${want.key} holds an object that is not batch ${want.seq} (${why}); nothing was written or marked`,
    );
  if (!existing || !m) throw conflict("not an archive object");
  if (m.seq !== want.seq || m.key !== want.key || m.after_id !== want.after_id)
    throw conflict("another place in the chain");
  if (m.prev_manifest_sha256 !== want.prev_manifest_sha256) throw conflict("another previous batch");
  const rows = await rowsAfter(em, deps.schema, { afterId: m.after_id, upTo: m.last_id, limit: m.count + 1 });
  if (rows.length === 0) throw conflict("none of its rows are in the database");
  const rebuilt = encodeBatch({
    seq: want.seq,
    key: want.key,
    afterId: want.after_id,
    prevManifestSha256: want.prev_manifest_sha256,
    rows,
  });
  if (rebuilt.manifestSha256 !== existing.manifestSha256) throw conflict("its rows differ from the database's");
  deps.logger.warn(
    { seq: m.seq, key: m.key },
    "audit batch was already in the bucket (a round died before marking it); marked now",
  );
  return rebuilt;
}
