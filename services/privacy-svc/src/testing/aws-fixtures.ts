import { randomBytes } from "node:crypto";
import { CreateKeyCommand } from "@aws-sdk/client-kms";
import { DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { CreateEmailIdentityCommand } from "@aws-sdk/client-sesv2";
import type { AwsClients } from "@flowstate/shared/aws/clients";
import { ensureBucket } from "../../../../deploy/local/apply/buckets.ts";
import { EXPORT_RETENTION_DAYS } from "../../../../deploy/local/definition.ts";

/**
 * What the bootstrap creates for privacy-svc, per test file and uniquely named: an exports bucket
 * made by the bootstrap's own step (SSE-KMS under a key of its own, lifecycle, public access
 * blocked, the bucket policy the endpoint allows), and a verified SES sender.
 */
export async function createExportFixtures(aws: AwsClients): Promise<{
  bucket: string;
  kmsKeyId: string;
  mailFrom: string;
  objects(): Promise<string[]>;
  delete(): Promise<void>;
}> {
  const suffix = randomBytes(5).toString("hex");
  const bucket = `t-exports-${suffix}`;
  const s3 = aws.data("s3");
  const key = await aws.data("kms").send(new CreateKeyCommand({ Description: `test exports ${suffix}` }));
  const kmsKeyId = key.KeyMetadata!.Arn!;
  await ensureBucket(
    { aws, changes: [] },
    { role: "exports", name: bucket, versioned: false, expireAfterDays: EXPORT_RETENTION_DAYS },
    kmsKeyId,
  );
  const mailFrom = `no-reply-${suffix}@flowstate.test`;
  await aws.data("sesv2").send(new CreateEmailIdentityCommand({ EmailIdentity: mailFrom }));
  const objects = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).sort();
  return {
    bucket,
    kmsKeyId,
    mailFrom,
    objects,
    async delete() {
      for (const k of await objects()) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: k }));
      await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
    },
  };
}

/** One message as moto's SES store shows it (`<endpoint>/moto-api/data.json`). */
export interface SentMail {
  source: string;
  destinations: string[];
  subject: string;
  body: string;
}

/**
 * Every e-mail moto's SES has accepted, read from its state endpoint, as a user's inbox would
 * see it (the test's only view of what SES was asked to send).
 *
 * The endpoint serialises every model of every service, so it is slow and costs moto CPU that
 * other suites share: poll it sparingly. It also walks moto's instance sets without a lock, so a
 * resource created by a concurrent test makes it fail now and then (a 500 page); it is retried.
 */
export async function sentMail(endpoint: string): Promise<SentMail[]> {
  let data: Record<string, unknown> | undefined;
  for (let attempt = 1; !data; attempt++) {
    const res = await fetch(`${endpoint}/moto-api/data.json`);
    const text = await res.text();
    if (res.ok && text.startsWith("{")) data = JSON.parse(text) as Record<string, unknown>;
    else if (attempt >= 10) throw new Error(`moto's data.json answered ${res.status} ten times`);
    else await new Promise((r) => setTimeout(r, 200));
  }
  const ses = (data.ses ?? {}) as Record<string, Record<string, unknown>[]>;
  const out: SentMail[] = [];
  for (const [name, rows] of Object.entries(ses)) {
    if (name !== "Message") continue;
    for (const raw of rows) {
      const dest = raw.destinations as Record<string, string[]> | string[] | undefined;
      out.push({
        source: String(raw.source ?? ""),
        destinations: Array.isArray(dest) ? dest : [...(dest?.ToAddresses ?? []), ...(dest?.to_addresses ?? [])],
        subject: String(raw.subject ?? ""),
        body: String(raw.body ?? ""),
      });
    }
  }
  return out;
}
