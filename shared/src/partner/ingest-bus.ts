import { createHash } from "node:crypto";

/**
 * The us-east-1 side of the partner program: tenants forward AWS Partner Central events from their
 * account's default bus to one of Flowstate's partner buses (ADR 0003). An EventBridge bus policy
 * is capped at 10,240 bytes, so one bus cannot admit 10,000 tenant accounts by name; the accounts
 * are spread over a fixed number of shard buses by a stable hash of the account id, and each
 * shard's policy admits only its connected accounts.
 */

/** EventBridge's limit on one bus's resource policy (AWS::Events::EventBusPolicy). */
export const BUS_POLICY_MAX_BYTES = 10_240;

/**
 * Accounts one shard admits at most: a policy with 600 account ids measures ~9.3 KB (the
 * ingest-bus test), leaving room for the statement around them.
 */
export const ACCOUNTS_PER_SHARD = 600;

/**
 * Shards per stage. prod: 20 × 600 = 12,000 accounts, room for 10,000 tenants with the hash's
 * spread (the busiest of 20 shards holds ~550 of 10,000 random ids; tested); 20 buses are well
 * inside EventBridge's 100 buses per account and region. dev: 2, so local runs exercise sharding.
 */
export const PARTNER_BUS_SHARDS = { dev: 2, prod: 20 } as const;

export const PARTNER_EVENT_SOURCE = "aws.partnercentral-selling";

type Names = { SERVICE_PREFIX: string; STAGE: string };

/** The stage's shard count (an unknown stage is sized like dev). */
export const partnerBusShards = (stage: string): number =>
  stage === "prod" ? PARTNER_BUS_SHARDS.prod : PARTNER_BUS_SHARDS.dev;

/** The shard bus names, `<prefix>-<stage>-partner-<n>`, in shard order. */
export function partnerBusNames(env: Names): string[] {
  return Array.from(
    { length: partnerBusShards(env.STAGE) },
    (_, n) => `${env.SERVICE_PREFIX}-${env.STAGE}-partner-${n}`,
  );
}

/**
 * The shard an account forwards to: stable for the life of a deployment (the shard count is fixed
 * per stage), so a tenant's forwarding rule never has to change.
 *
 * @example
 * partnerBusShard("111122223333", 20); // → a number in 0..19, always the same one
 */
export function partnerBusShard(accountId: string, shards: number): number {
  return createHash("sha256").update(accountId).digest().readUInt32BE(0) % shards;
}

/**
 * The resource policy of one shard bus: PutEvents from the listed accounts only, and only events
 * whose source is Partner Central. `aws:PrincipalAccount` carries the sending account for
 * cross-account rule delivery; an empty list admits nobody (a policy needs a statement, so the
 * statement names the bus owner's own account, which never forwards).
 *
 * @example
 * partnerBusPolicy("arn:aws:events:us-east-1:111111111111:event-bus/flowstate-prod-partner-3", ["222222222222"]);
 */
export function partnerBusPolicy(busArn: string, accountIds: readonly string[]): string {
  const owner = busArn.split(":")[4]!;
  const accounts = accountIds.length ? [...new Set(accountIds)].sort() : [owner];
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "ConnectedTenantsForwardPartnerCentral",
        Effect: "Allow",
        Principal: "*",
        Action: "events:PutEvents",
        Resource: busArn,
        Condition: {
          StringEquals: { "aws:PrincipalAccount": accounts, "events:source": PARTNER_EVENT_SOURCE },
        },
      },
    ],
  });
}
