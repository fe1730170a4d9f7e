import { createHash } from "node:crypto";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { type DecodedObject, decodeObject, type EncodedBatch, MalformedArchiveObject } from "./format.ts";

export type PutResult =
  | { outcome: "written" }
  /** The key was taken: what stands there (undefined when it is not an archive object at all). */
  | { outcome: "exists"; existing: DecodedObject | undefined };

const isPreconditionFailed = (err: unknown) =>
  (err as { name?: string }).name === "PreconditionFailed" ||
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 412;

/**
 * Writes one archive object with the bucket's default Object Lock retention, never over another.
 * In a versioned bucket (Object Lock implies one) a plain PutObject on a taken key is not refused:
 * it adds a version, on S3 and on moto 5.2.1 alike. So the write is conditional (`If-None-Match: *`,
 * S3 conditional writes): a taken key answers 412, and the object standing there is read back for
 * the caller to decide whether it is this very batch (a re-archive after a crash between the put
 * and the database mark, or an SDK retry of a put whose answer was lost).
 *
 * The SHA-256 checksum has S3 check the stored body against the bytes hashed here. S3 requires a
 * checksum on every write to an Object Lock bucket, and so does moto 5.2.1, which looks for the
 * `x-amz-sdk-checksum-algorithm` header (or Content-MD5): a bare `x-amz-checksum-sha256` answered
 * 400 MissingUploadObjectWithObjectLockHeaders, hence ChecksumAlgorithm beside the value.
 *
 * @example
 * const put = await putArchiveObject(s3, bucket, batch);
 * if (put.outcome === "exists" && put.existing?.manifestSha256 !== batch.manifestSha256) throw new ArchiveConflict(…);
 */
export async function putArchiveObject(s3: S3Client, bucket: string, batch: EncodedBatch): Promise<PutResult> {
  const Key = batch.manifest.key;
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key,
        Body: batch.body,
        IfNoneMatch: "*",
        // Not Content-Encoding: gzip, which would have HTTP clients unzip it and hash other bytes.
        ContentType: "application/gzip",
        ChecksumAlgorithm: "SHA256",
        ChecksumSHA256: createHash("sha256").update(batch.body).digest("base64"),
      }),
    );
    return { outcome: "written" };
  } catch (err) {
    if (!isPreconditionFailed(err)) throw err;
  }
  const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
  const bytes = (await got.Body?.transformToByteArray()) ?? new Uint8Array();
  try {
    return { outcome: "exists", existing: decodeObject(bytes) };
  } catch (err) {
    if (err instanceof MalformedArchiveObject) return { outcome: "exists", existing: undefined };
    throw err;
  }
}
