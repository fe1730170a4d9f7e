import { Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import type { BucketDefinition, BucketRole, StackDefinition } from "../../local/definition.ts";
import { acknowledge } from "../nag.ts";

export interface StorageStackProps extends StackProps {
  definition: StackDefinition;
  /** `<prefix>-<stage>-<account>-access-logs`: S3 and ALB access logs (production only, not in the bootstrap). */
  accessLogsBucketName: string;
}

/**
 * The data key and every bucket and shared secret of the bootstrap's definition
 * (deploy/local/definition.ts), rendered as CloudFormation: the same names, the same rules.
 * Everything here is retained when the stack is deleted.
 */
export class StorageStack extends Stack {
  readonly dataKey: kms.Key;
  readonly buckets = new Map<BucketRole, s3.Bucket>();
  readonly accessLogs: s3.Bucket;
  readonly secrets = new Map<string, secretsmanager.Secret>();

  constructor(scope: Construct, id: string, props: StorageStackProps) {
    super(scope, id, props);
    const def = props.definition;
    this.dataKey = new kms.Key(this, "DataKey", {
      alias: def.keyAlias,
      description: `Flowstate data key (${def.keyAlias})`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // EventBridge delivers into the KMS-encrypted queues: it must be able to use the key, for this account only.
    this.dataKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: "EventBridgeDeliversToEncryptedQueues",
        principals: [new iam.ServicePrincipal("events.amazonaws.com")],
        actions: ["kms:GenerateDataKey", "kms:Decrypt"],
        resources: ["*"],
        conditions: { StringEquals: { "aws:SourceAccount": this.account } },
      }),
    );

    // Access logs cannot be delivered to an SSE-KMS bucket, hence S3-managed keys here only.
    this.accessLogs = new s3.Bucket(this, "AccessLogs", {
      bucketName: props.accessLogsBucketName,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: "expire", expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.accessLogs, "AwsSolutions-S1", "this is the access-log bucket; logging it into itself would loop");

    for (const b of def.buckets) this.buckets.set(b.role, this.bucket(b));
    for (const x of def.secrets) {
      const secret = new secretsmanager.Secret(this, `Secret-${x.name.split("/").pop()}`, {
        secretName: x.name,
        description: x.description,
        encryptionKey: this.dataKey,
        // 32 random bytes' worth, like the bootstrap's (a base64url string there, letters and digits here).
        generateSecretString: { passwordLength: 43, excludePunctuation: true },
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledge(
        secret,
        "AwsSolutions-SMG4",
        "every replica holds this HMAC key; it is rotated by the rotate-keys runbook (overlap, then switch), not by a Lambda that would cut in-flight assertions",
      );
      this.secrets.set(x.name, secret);
    }
  }

  /** One bucket of the definition: SSE-KMS with the data key, TLS only, no public access, versioning, expiry, Object Lock. */
  private bucket(b: BucketDefinition): s3.Bucket {
    const bucket = new s3.Bucket(this, `Bucket-${b.role}`, {
      bucketName: b.name,
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.dataKey,
      bucketKeyEnabled: true,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      versioned: b.versioned,
      lifecycleRules:
        b.expireAfterDays === undefined ? undefined : [{ id: "expire", expiration: Duration.days(b.expireAfterDays) }],
      objectLockEnabled: b.objectLock ? true : undefined,
      objectLockDefaultRetention: b.objectLock
        ? b.objectLock.mode === "COMPLIANCE"
          ? s3.ObjectLockRetention.compliance(Duration.days(b.objectLock.days))
          : s3.ObjectLockRetention.governance(Duration.days(b.objectLock.days))
        : undefined,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: `${b.name}/`,
      // COMPLIANCE retention cannot be shortened by anyone, root included: never let CloudFormation try to delete.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    return bucket;
  }
}
