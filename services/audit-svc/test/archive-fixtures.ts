import { randomBytes } from "node:crypto";
import { CreateKeyCommand } from "@aws-sdk/client-kms";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import { type AwsClients, DATA_REGION } from "@flowstate/shared/aws/clients";
import { ensureBucket } from "../../../deploy/local/apply/buckets.ts";
import { defineStack } from "../../../deploy/local/definition.ts";

/**
 * The audit archive bucket exactly as the bootstrap defines and creates it (Object Lock COMPLIANCE,
 * 2555 days, versioned, SSE-KMS), under a name and a KMS key of the test's own. moto enforces the
 * retention, so nothing written here can be removed: the names are unique per call and moto dies
 * with the test run.
 */
export async function createLockedArchiveBucket(aws: AwsClients): Promise<string> {
  const suffix = randomBytes(5).toString("hex");
  const definition = defineStack({
    prefix: `t${suffix}`,
    stage: "test",
    accountId: "123456789012",
    mailFrom: "no-reply@flowstate.test",
  }).buckets.find((b) => b.role === "auditArchive")!;
  const key = await aws.data("kms").send(new CreateKeyCommand({ Description: `test audit archive ${suffix}` }));
  await ensureBucket({ aws, changes: [] }, definition, key.KeyMetadata!.Arn!);
  return definition.name;
}

/** A plain bucket (no versioning, no Object Lock) where a test may alter archive objects; deleted after. */
export async function createPlainBucket(aws: AwsClients): Promise<{ bucket: string; delete(): Promise<void> }> {
  const bucket = `t-audit-plain-${randomBytes(5).toString("hex")}`;
  const s3 = aws.data("s3");
  await s3.send(
    new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: DATA_REGION } }),
  );
  return {
    bucket,
    async delete() {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
      for (const o of listed.Contents ?? []) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: o.Key! }));
      await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
    },
  };
}

/** `n` synthetic row lines with ascending ids from `firstId`, ids `step` apart (gaps as burned ids leave). */
export function syntheticRows(n: number, firstId = 1, step = 1): { id: string; line: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const id = firstId + i * step;
    return { id: String(id), line: JSON.stringify({ id, table: "audit_event", event_type: "TenantCreated" }) };
  });
}
