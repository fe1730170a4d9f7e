import {
  CreateBucketCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectLockConfigurationCommand,
  PutPublicAccessBlockCommand,
} from "@aws-sdk/client-s3";
import { DATA_REGION } from "@flowstate/shared/aws/clients";
import type { BucketDefinition } from "../definition.ts";
import { type ApplyContext, isAwsError, sameJson } from "./common.ts";

const NOT_CONFIGURED = [
  "NoSuchLifecycleConfiguration",
  "ServerSideEncryptionConfigurationNotFoundError",
  "ObjectLockConfigurationNotFoundError",
  "NoSuchPublicAccessBlockConfiguration",
  "NoSuchBucketPolicy",
];

/**
 * Reads one bucket setting, compares it with the wanted one and writes it only when it differs.
 * A setting that was never configured reads as an error on S3, which counts as "differs".
 */
async function converge(
  ctx: ApplyContext,
  what: string,
  read: () => Promise<unknown>,
  want: unknown,
  write: () => Promise<unknown>,
) {
  let current: unknown;
  try {
    current = await read();
  } catch (err) {
    if (!isAwsError(err, NOT_CONFIGURED)) throw err;
  }
  if (current !== undefined && sameJson(current, want)) return;
  await write();
  ctx.changes.push(what);
}

/**
 * Ensures one bucket and every setting the definition gives it: SSE-KMS with the data key, public
 * access blocked, TLS-only policy, versioning, lifecycle expiry and Object Lock default retention.
 */
export async function ensureBucket(ctx: ApplyContext, def: BucketDefinition, keyArn: string): Promise<void> {
  const s3 = ctx.aws.data("s3");
  const Bucket = def.name;
  try {
    await s3.send(new HeadBucketCommand({ Bucket }));
  } catch (err) {
    if (!isAwsError(err, ["NotFound", "NoSuchBucket"], 404)) throw err;
    try {
      await s3.send(
        new CreateBucketCommand({
          Bucket,
          CreateBucketConfiguration: { LocationConstraint: DATA_REGION },
          // Object Lock can only be switched on when the bucket is created (it implies versioning).
          ObjectLockEnabledForBucket: def.objectLock ? true : undefined,
        }),
      );
      ctx.changes.push(`created bucket ${Bucket}`);
    } catch (createErr) {
      if (!isAwsError(createErr, ["BucketAlreadyOwnedByYou"])) throw createErr;
    }
  }

  const block = { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true };
  await converge(
    ctx,
    `blocked public access to ${Bucket}`,
    async () => (await s3.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration,
    block,
    () => s3.send(new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: block })),
  );

  const encryption = [
    {
      ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "aws:kms" as const, KMSMasterKeyID: keyArn },
      BucketKeyEnabled: true,
    },
  ];
  await converge(
    ctx,
    `set SSE-KMS on ${Bucket}`,
    async () => (await s3.send(new GetBucketEncryptionCommand({ Bucket }))).ServerSideEncryptionConfiguration?.Rules,
    encryption,
    () => s3.send(new PutBucketEncryptionCommand({ Bucket, ServerSideEncryptionConfiguration: { Rules: encryption } })),
  );

  // The emulators (moto under npm start, LocalStack under compose) are reached over plain HTTP, and
  // moto 5.2 evaluates aws:SecureTransport: with the TLS-only policy every object write and every
  // presigned download was refused (403), so the exports bucket could hold nothing locally. The
  // policy is applied wherever the endpoint speaks TLS, which real AWS always does.
  if (!(await plainHttpEndpoint(s3))) {
    const policy = tlsOnlyPolicy(Bucket);
    await converge(
      ctx,
      `set TLS-only policy on ${Bucket}`,
      async () => (await s3.send(new GetBucketPolicyCommand({ Bucket }))).Policy,
      policy,
      () => s3.send(new PutBucketPolicyCommand({ Bucket, Policy: JSON.stringify(policy) })),
    );
  }

  // An unversioned bucket that was once versioned can only be suspended, never turned back off.
  const versioning = def.versioned ? "Enabled" : "Suspended";
  const currentVersioning = (await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status;
  if (def.versioned ? currentVersioning !== "Enabled" : currentVersioning === "Enabled") {
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: versioning } }));
    ctx.changes.push(`set versioning ${versioning} on ${Bucket}`);
  }

  if (def.expireAfterDays !== undefined) {
    const rules = [
      { ID: "expire", Status: "Enabled" as const, Filter: { Prefix: "" }, Expiration: { Days: def.expireAfterDays } },
    ];
    await converge(
      ctx,
      `set lifecycle expiry ${def.expireAfterDays} days on ${Bucket}`,
      async () =>
        (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }))).Rules?.map((r) => ({
          ID: r.ID,
          Status: r.Status,
          Filter: { Prefix: r.Filter?.Prefix ?? "" },
          Expiration: { Days: r.Expiration?.Days },
        })),
      rules,
      () => s3.send(new PutBucketLifecycleConfigurationCommand({ Bucket, LifecycleConfiguration: { Rules: rules } })),
    );
  }

  if (def.objectLock) {
    const lock = {
      ObjectLockEnabled: "Enabled" as const,
      Rule: { DefaultRetention: { Mode: def.objectLock.mode, Days: def.objectLock.days } },
    };
    await converge(
      ctx,
      `set Object Lock ${def.objectLock.mode} ${def.objectLock.days} days on ${Bucket}`,
      async () => {
        const c = (await s3.send(new GetObjectLockConfigurationCommand({ Bucket }))).ObjectLockConfiguration;
        // Projected: moto also reports `Years: 0` beside `Days`.
        const r = c?.Rule?.DefaultRetention;
        return {
          ObjectLockEnabled: c?.ObjectLockEnabled,
          Rule: { DefaultRetention: { Mode: r?.Mode, Days: r?.Days } },
        };
      },
      lock,
      () => s3.send(new PutObjectLockConfigurationCommand({ Bucket, ObjectLockConfiguration: lock })),
    );
  }
}

/** Whether the client talks to a configured endpoint over plain HTTP (a local emulator); never on real AWS. */
async function plainHttpEndpoint(s3: { config: { endpoint?: () => Promise<{ protocol: string }> } }) {
  return s3.config.endpoint ? (await s3.config.endpoint()).protocol === "http:" : false;
}

/** Refuses every request that does not arrive over TLS (AWS Security Hub S3.5). */
function tlsOnlyPolicy(bucket: string) {
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "DenyInsecureTransport",
        Effect: "Deny",
        Principal: "*",
        Action: "s3:*",
        Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      },
    ],
  };
}
