import assert from "node:assert/strict";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { beforeAll, describe, test } from "vitest";
import { decodeObject, encodeBatch, GENESIS_HASH } from "../src/archive/format.ts";
import { ARCHIVE_PREFIX, archiveKey } from "../src/archive/keys.ts";
import { putArchiveObject } from "../src/archive/put-object.ts";
import { createLockedArchiveBucket, syntheticRows } from "./archive-fixtures.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const s3 = aws.data("s3");
let seq = 0;
const batchOf = (rows = syntheticRows(3)) => {
  seq++;
  const key = archiveKey(ARCHIVE_PREFIX, seq, new Date());
  return encodeBatch({ seq, key, afterId: "0", prevManifestSha256: GENESIS_HASH, rows });
};

describe("archive objects in the Object Lock bucket (moto enforces COMPLIANCE retention)", () => {
  let Bucket: string;
  beforeAll(async () => {
    Bucket = await createLockedArchiveBucket(aws);
  });

  test("an object is written with the bucket's default retention: COMPLIANCE until 2555 days from now", async () => {
    const batch = batchOf();
    assert.deepEqual(await putArchiveObject(s3, Bucket, batch), { outcome: "written" });
    const head = await s3.send(new HeadObjectCommand({ Bucket, Key: batch.manifest.key }));
    assert.equal(head.ObjectLockMode, "COMPLIANCE");
    const days = (head.ObjectLockRetainUntilDate!.getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 2553 && days <= 2555, `retained ${days} days`);
  });

  test("deleting an archived object version is refused, and a plain delete only hides it behind a marker", async () => {
    const batch = batchOf();
    await putArchiveObject(s3, Bucket, batch);
    const Key = batch.manifest.key;
    const [version] = (await s3.send(new ListObjectVersionsCommand({ Bucket, Prefix: Key }))).Versions ?? [];
    await assert.rejects(
      s3.send(new DeleteObjectCommand({ Bucket, Key, VersionId: version!.VersionId })),
      (err: Error & { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode === 403,
    );
    await assert.rejects(
      s3.send(new DeleteObjectCommand({ Bucket, Key, VersionId: version!.VersionId, BypassGovernanceRetention: true })),
      (err: Error & { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode === 403,
    );
    // Without a version id S3 (and moto) adds a delete marker: the locked version is still there.
    await s3.send(new DeleteObjectCommand({ Bucket, Key }));
    const kept = await s3.send(new GetObjectCommand({ Bucket, Key, VersionId: version!.VersionId }));
    assert.equal(decodeObject(await kept.Body!.transformToByteArray()).manifestSha256, batch.manifestSha256);
  });

  test("overwriting is refused to the archiver (conditional write), and another writer only adds a version", async () => {
    const batch = batchOf();
    const Key = batch.manifest.key;
    await putArchiveObject(s3, Bucket, batch);
    // The same key again: 412 inside, answered with the object standing there, which is this batch.
    const again = await putArchiveObject(s3, Bucket, batch);
    assert.equal(again.outcome, "exists");
    assert.equal(again.outcome === "exists" && again.existing?.manifestSha256, batch.manifestSha256);
    // Other content under the key: refused, and what stands there is reported as it is.
    const other = encodeBatch({
      ...batch.manifest,
      afterId: "0",
      prevManifestSha256: GENESIS_HASH,
      rows: syntheticRows(1, 9),
    });
    const refused = await putArchiveObject(s3, Bucket, { ...other, manifest: { ...other.manifest, key: Key } });
    assert.equal(refused.outcome === "exists" && refused.existing?.manifestSha256, batch.manifestSha256);
    assert.equal((await s3.send(new ListObjectVersionsCommand({ Bucket, Prefix: Key }))).Versions?.length, 1);

    // A writer that does not ask (a plain PutObject) is not refused by Object Lock: S3 and moto 5.2.1
    // add a version and keep the original, locked. verify reports such a key as "overwritten".
    await s3.send(new PutObjectCommand({ Bucket, Key, Body: "tampered" }));
    const versions = (await s3.send(new ListObjectVersionsCommand({ Bucket, Prefix: Key }))).Versions ?? [];
    assert.equal(versions.length, 2);
    const original = versions.find((v) => !v.IsLatest)!;
    await assert.rejects(
      s3.send(new DeleteObjectCommand({ Bucket, Key, VersionId: original.VersionId })),
      (err: Error & { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode === 403,
    );
    const kept = await s3.send(new GetObjectCommand({ Bucket, Key, VersionId: original.VersionId }));
    assert.equal(decodeObject(await kept.Body!.transformToByteArray()).manifestSha256, batch.manifestSha256);
  });
});
