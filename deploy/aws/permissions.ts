import { keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { ROLE_NAME as SELLER_ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { BUCKET_USERS, consumes, type DeploymentNames, entryOf } from "./services.ts";
import { type DeploySettings, regions } from "./settings.ts";

/** One IAM statement as data: what the least-privilege test reads and identity.ts renders. */
export interface Grant {
  sid: string;
  actions: string[];
  resources: string[];
  conditions?: Record<string, Record<string, string | string[]>>;
}

const arn = (s: DeploySettings) => ({
  queue: (name: string, region: string = regions.data) => `arn:aws:sqs:${region}:${s.account}:${name}`,
  bus: (name: string, region: string = regions.data) => `arn:aws:events:${region}:${s.account}:event-bus/${name}`,
  // Secrets Manager appends six random characters to a secret's name in its ARN.
  secret: (name: string) => `arn:aws:secretsmanager:${regions.data}:${s.account}:secret:${name}-??????`,
  bucket: (name: string) => `arn:aws:s3:::${name}`,
  role: (name: string) => `arn:aws:iam::${s.account}:role/${name}`,
  // Keys are addressed by alias (kms:ResourceAliases) because the key id is only known once created.
  anyKey: `arn:aws:kms:${regions.data}:${s.account}:key/*`,
  identity: (identity: string) => `arn:aws:ses:${regions.data}:${s.account}:identity/${identity}`,
});

const CONSUME = [
  "sqs:ReceiveMessage",
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:GetQueueUrl",
  "sqs:GetQueueAttributes",
];

/**
 * The task role's statements of one service: for each AWS client the catalog lets it build, the
 * fewest actions on its own resources only. Marketplace clients get nothing here: they run on the
 * credentials of a tenant's role, reached through the principals (`principalGrants`).
 */
export function taskGrants(s: DeploySettings, names: DeploymentNames, service: FlowstateServiceName): Grant[] {
  const a = arn(s);
  const def = names.definition;
  const clients = new Set<string>(entryOf(service).aws);
  const alias = { "ForAnyValue:StringEquals": { "kms:ResourceAliases": def.keyAlias } };
  const via = (svc: string) => ({ StringEquals: { "kms:ViaService": `${svc}.${regions.data}.amazonaws.com` } });
  const grants: Grant[] = [];
  const queue = def.queues.find((q) => q.service === service);
  if (clients.has("sqs") && consumes(service) && queue) {
    grants.push({ sid: "ConsumeOwnQueue", actions: CONSUME, resources: [a.queue(queue.queueName)] });
    // The consumer's /metrics reads its DLQ depth (shared/src/consumer/dlq-depth.ts).
    grants.push({
      sid: "ReadOwnDlqDepth",
      actions: ["sqs:GetQueueAttributes", "sqs:GetQueueUrl"],
      resources: [a.queue(queue.dlqName)],
    });
    // SQS encrypts with the data key: receiving decrypts through SQS.
    grants.push({
      sid: "OpenOwnQueueMessages",
      actions: ["kms:Decrypt"],
      resources: [a.anyKey],
      conditions: { ...alias, ...via("sqs") },
    });
  }
  if (clients.has("eventbridge")) {
    grants.push({ sid: "PublishDomainEvents", actions: ["events:PutEvents"], resources: [a.bus(def.busName)] });
  }
  if (clients.has("secretsmanager")) {
    // Secrets of one service's own (identity-svc's throttle key, the console's sealing key): their readers only.
    const ownSecrets = def.secrets.filter((x) => x.readers.includes(service));
    if (ownSecrets.length)
      grants.push({
        sid: "ReadOwnSecrets",
        actions: ["secretsmanager:GetSecretValue"],
        resources: ownSecrets.map((x) => a.secret(x.name)),
      });
    // Keys per caller (ADR 0014): exactly the pairs this service signs or verifies; never the master.
    const pairs = new Set(keyPairsOf(service).map((p) => p.id));
    const own = def.keyPairs.filter((p) => pairs.has(p.pairId)).map((p) => a.secret(p.name));
    // A service that neither signs nor verifies assertions (web-console: a client of the API) holds none.
    if (own.length) grants.push({ sid: "ReadOwnKeyPairs", actions: ["secretsmanager:GetSecretValue"], resources: own });
    grants.push({
      sid: "OpenSecrets",
      actions: ["kms:Decrypt"],
      resources: [a.anyKey],
      conditions: { ...alias, ...via("secretsmanager") },
    });
  }
  if (service === "identity-svc") {
    // identity-svc creates its signing-key secret on first boot and rotates keys in it (its README).
    grants.push({
      sid: "OwnSigningKeys",
      actions: [
        "secretsmanager:CreateSecret",
        "secretsmanager:DescribeSecret",
        "secretsmanager:GetSecretValue",
        "secretsmanager:PutSecretValue",
      ],
      resources: [a.secret(names.signingKeysSecretId)],
    });
  }
  if (clients.has("kms")) {
    // connector-svc seals external IDs with the data key (encryption context per tenant, ADR 0006).
    grants.push({
      sid: "SealExternalIds",
      actions: ["kms:Encrypt", "kms:Decrypt"],
      resources: [a.anyKey],
      conditions: alias,
    });
  }
  if (clients.has("s3")) {
    for (const bucket of def.buckets.filter((b) => BUCKET_USERS[b.role] === service)) {
      const objects =
        bucket.role === "auditArchive"
          ? ["s3:PutObject", "s3:GetObject", "s3:GetObjectVersion"] // write-once: no delete, Object Lock holds anyway
          : ["s3:PutObject", "s3:GetObject", "s3:DeleteObject"];
      grants.push({ sid: `Objects${bucket.role}`, actions: objects, resources: [`${a.bucket(bucket.name)}/*`] });
      grants.push({
        sid: `List${bucket.role}`,
        actions: ["s3:ListBucket", "s3:ListBucketVersions"],
        resources: [a.bucket(bucket.name)],
      });
    }
    grants.push({
      sid: "BucketKey",
      actions: ["kms:GenerateDataKey", "kms:Decrypt"],
      resources: [a.anyKey],
      conditions: { ...alias, ...via("s3") },
    });
  }
  if (clients.has("sesv2")) {
    const domain = def.mailFrom.split("@")[1]!;
    grants.push({
      sid: "SendMail",
      actions: ["ses:SendEmail"],
      resources: [a.identity(def.mailFrom), a.identity(domain)],
    });
  }
  if (clients.has("seller-sts")) {
    grants.push({
      sid: "ActAsPrincipals",
      actions: ["sts:AssumeRole"],
      resources: Object.values(names.principalRoles).map(a.role),
    });
  }
  if (clients.has("partner-sqs")) {
    grants.push({
      sid: "DrainPartnerTransit",
      actions: CONSUME,
      resources: [a.queue(names.partner.queueName, regions.partner)],
    });
  }
  if (clients.has("partner-eventbridge")) {
    grants.push({
      sid: "AdmitConnectedAccounts",
      actions: ["events:DescribeEventBus", "events:PutPermission"],
      resources: names.partner.buses.map((b) => a.bus(b, regions.partner)),
    });
  }
  return grants;
}

/**
 * Decrypting secrets sealed with the data key, through Secrets Manager only: task roles reading the
 * shared secrets, and execution roles injecting a service's database login into its container.
 */
export function openSecretsGrant(s: DeploySettings, names: DeploymentNames): Grant {
  return {
    sid: "OpenSecrets",
    actions: ["kms:Decrypt"],
    resources: [arn(s).anyKey],
    conditions: {
      "ForAnyValue:StringEquals": { "kms:ResourceAliases": names.definition.keyAlias },
      StringEquals: { "kms:ViaService": `secretsmanager.${regions.data}.amazonaws.com` },
    },
  };
}

/**
 * What a principal role (`<prefix>-<stage>-backend`, `…-mcp-execution`) may do: assume a tenant's
 * `MarketplaceConnector` role in any seller account (the tenant's trust policy and external ID decide).
 */
export function principalGrants(): Grant[] {
  return [
    { sid: "AssumeSellerRole", actions: ["sts:AssumeRole"], resources: [`arn:aws:iam::*:role/${SELLER_ROLE_NAME}`] },
  ];
}

/** The services the principals trust: those the catalog lets build the seller's STS client. */
export const principalUsers = (services: readonly FlowstateServiceName[]) =>
  services.filter((svc) => (entryOf(svc).aws as readonly string[]).includes("seller-sts"));
