import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, describe, test } from "vitest";
import { decodeObject, type EncodedBatch, encodeBatch, GENESIS_HASH } from "../src/archive/format.ts";
import { ARCHIVE_PREFIX, archiveKey } from "../src/archive/keys.ts";
import { putArchiveObject } from "../src/archive/put-object.ts";
import { verifyArchive } from "../src/archive/verify.ts";
import { createLockedArchiveBucket, createPlainBucket, syntheticRows } from "./archive-fixtures.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const s3 = aws.data("s3");
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

/** Four chained batches of 3 rows (ids with gaps, as burned ids leave), the way the archiver writes them. */
async function writeChain(bucket: string, n = 4): Promise<EncodedBatch[]> {
  const batches: EncodedBatch[] = [];
  let afterId = "0";
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const rows = syntheticRows(3, Number(afterId) + 2, 2);
    const key = archiveKey(ARCHIVE_PREFIX, seq, new Date(Date.UTC(2026, 10, 20 + seq)));
    const batch = encodeBatch({ seq, key, afterId, prevManifestSha256: prev, rows });
    assert.equal((await putArchiveObject(s3, bucket, batch)).outcome, "written");
    batches.push(batch);
    afterId = batch.manifest.last_id;
    prev = batch.manifestSha256;
  }
  return batches;
}

async function plainChain() {
  const b = await createPlainBucket(aws);
  cleanups.push(b.delete);
  return { bucket: b.bucket, batches: await writeChain(b.bucket) };
}

const verify = (bucket: string, recorded?: Map<number, { key: string; manifestSha256: string }>) =>
  verifyArchive({ s3, bucket, prefix: ARCHIVE_PREFIX, ...(recorded ? { recorded } : {}) });
const recordedOf = (batches: EncodedBatch[]) =>
  new Map(batches.map((b) => [b.manifest.seq, { key: b.manifest.key, manifestSha256: b.manifestSha256 }]));
const put = (Bucket: string, Key: string, Body: Uint8Array | string) =>
  s3.send(new PutObjectCommand({ Bucket, Key, Body }));

describe("verify", () => {
  test("passes on an intact archive and reports its extent and head", async () => {
    const { bucket, batches } = await plainChain();
    assert.deepEqual(await verify(bucket, recordedOf(batches)), {
      ok: true,
      objects: 4,
      rows: 12,
      lastSeq: 4,
      lastId: batches[3]!.manifest.last_id,
      headSha256: batches[3]!.manifestSha256,
    });
  });

  test("names the object whose rows were altered", async () => {
    const { bucket, batches } = await plainChain();
    const target = batches[1]!.manifest.key;
    const text = gunzipSync(batches[1]!.body).toString().replace("TenantCreated", "TenantDeleted");
    await put(bucket, target, gzipSync(text));
    const result = await verify(bucket);
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && [result.break.key, result.break.seq, result.break.reason], [
      target,
      2,
      "content-hash",
    ]);
  });

  test("names the object when another batch's object was written under its key", async () => {
    const { bucket, batches } = await plainChain();
    const target = batches[2]!.manifest.key;
    await s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: target, CopySource: `${bucket}/${batches[1]!.manifest.key}` }),
    );
    const result = await verify(bucket);
    assert.deepEqual(!result.ok && [result.break.key, result.break.reason], [target, "wrong-key"]);
  });

  test("a consistently rebuilt object breaks the chain at the next one, and the recorded hashes name it", async () => {
    const { bucket, batches } = await plainChain();
    const b = batches[1]!.manifest;
    const forged = encodeBatch({
      seq: b.seq,
      key: b.key,
      afterId: b.after_id,
      prevManifestSha256: b.prev_manifest_sha256,
      rows: syntheticRows(3, Number(b.first_id), 2).map((r) => ({ ...r, line: r.line.replace("TenantCreated", "X") })),
    });
    await put(bucket, b.key, forged.body);
    const alone = await verify(bucket);
    assert.deepEqual(!alone.ok && [alone.break.key, alone.break.reason], [batches[2]!.manifest.key, "chain"]);
    assert.match(!alone.ok ? alone.break.detail : "", new RegExp(b.key.replaceAll("/", "\\/")));
    const crossChecked = await verify(bucket, recordedOf(batches));
    assert.deepEqual(!crossChecked.ok && [crossChecked.break.key, crossChecked.break.reason], [b.key, "recorded-hash"]);
  });

  test("a missing object is named by the first object after the gap, or from the records at the tail", async () => {
    const { bucket, batches } = await plainChain();
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: batches[1]!.manifest.key }));
    const gap = await verify(bucket);
    assert.deepEqual(!gap.ok && [gap.break.key, gap.break.reason], [batches[2]!.manifest.key, "missing-object"]);

    const tail = await plainChain();
    await s3.send(new DeleteObjectCommand({ Bucket: tail.bucket, Key: tail.batches[3]!.manifest.key }));
    assert.equal((await verify(tail.bucket)).ok, true, "without records a cut tail is invisible");
    const withRecords = await verify(tail.bucket, recordedOf(tail.batches));
    assert.deepEqual(!withRecords.ok && [withRecords.break.key, withRecords.break.reason], [
      tail.batches[3]!.manifest.key,
      "missing-object",
    ]);
  });

  test("a batch that does not start where the previous ended, or is not an archive object, is a break", async () => {
    const { bucket, batches } = await plainChain();
    const b = batches[2]!.manifest;
    // Re-chained correctly but one row skipped: the ids no longer continue.
    const skipping = encodeBatch({
      seq: b.seq,
      key: b.key,
      afterId: String(Number(b.after_id) + 1),
      prevManifestSha256: b.prev_manifest_sha256,
      rows: syntheticRows(3, Number(b.first_id), 2),
    });
    await put(bucket, b.key, skipping.body);
    const result = await verify(bucket);
    assert.deepEqual(!result.ok && [result.break.key, result.break.reason], [b.key, "id-continuity"]);

    const other = await plainChain();
    await put(other.bucket, other.batches[0]!.manifest.key, "not gzip");
    const malformed = await verify(other.bucket);
    assert.deepEqual(!malformed.ok && [malformed.break.key, malformed.break.reason], [
      other.batches[0]!.manifest.key,
      "malformed",
    ]);
    await put(other.bucket, `${ARCHIVE_PREFIX}/notes.txt`, "hello");
    const stray = await verify(other.bucket);
    assert.deepEqual(!stray.ok && [stray.break.key, stray.break.reason], [
      `${ARCHIVE_PREFIX}/notes.txt`,
      "unexpected-key",
    ]);
  });

  test("in the locked bucket, an overwrite attempt and a delete marker are named though the original stays", async () => {
    const bucket = await createLockedArchiveBucket(aws);
    const batches = await writeChain(bucket, 3);
    assert.equal((await verify(bucket, recordedOf(batches))).ok, true);
    await put(bucket, batches[1]!.manifest.key, batches[2]!.body);
    const overwritten = await verify(bucket);
    assert.deepEqual(!overwritten.ok && [overwritten.break.key, overwritten.break.reason], [
      batches[1]!.manifest.key,
      "overwritten",
    ]);
    // The original version is still what the archiver wrote.
    const Key = batches[1]!.manifest.key;
    const versions = (await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: Key }))).Versions ?? [];
    const original = await s3.send(
      new GetObjectCommand({ Bucket: bucket, Key, VersionId: versions.find((v) => !v.IsLatest)!.VersionId }),
    );
    assert.equal(decodeObject(await original.Body!.transformToByteArray()).manifestSha256, batches[1]!.manifestSha256);

    const other = await createLockedArchiveBucket(aws);
    const more = await writeChain(other, 2);
    await s3.send(new DeleteObjectCommand({ Bucket: other, Key: more[0]!.manifest.key }));
    const hidden = await verify(other);
    assert.deepEqual(!hidden.ok && [hidden.break.key, hidden.break.reason], [more[0]!.manifest.key, "deleted"]);
  });
});

describe("the verify command (npm run audit:verify)", () => {
  const cli = (bucket: string) =>
    spawnSync(nodeBinary, [join(import.meta.dirname, "..", "src", "archive", "verify-cli.ts"), "--bucket", bucket], {
      env: { ...process.env },
      encoding: "utf8",
      timeout: 60_000,
    });

  test("exits 0 on an intact archive and 1 naming the altered object", async () => {
    const { bucket, batches } = await plainChain();
    const intact = cli(bucket);
    assert.equal(intact.status, 0, intact.stderr);
    assert.match(intact.stdout, /archive intact: 4 objects, 12 rows/);

    const target = batches[2]!.manifest.key;
    const text = gunzipSync(batches[2]!.body).toString().replace("TenantCreated", "TenantDeleted");
    await put(bucket, target, gzipSync(text));
    const broken = cli(bucket);
    assert.equal(broken.status, 1, broken.stderr);
    assert.ok(broken.stdout.includes(`archive BROKEN at ${target} (seq 3): content-hash`), broken.stdout);
  });

  test("exits 2 without a bucket", () => {
    const r = spawnSync(nodeBinary, [join(import.meta.dirname, "..", "src", "archive", "verify-cli.ts")], {
      env: { ...process.env, AUDIT_ARCHIVE_BUCKET: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(r.status, 2);
  });
});
