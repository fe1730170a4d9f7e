import { DescribeEventBusCommand, type EventBridgeClient, PutPermissionCommand } from "@aws-sdk/client-eventbridge";
import type { Logger } from "@flowstate/shared/log/logger";
import { partnerBusPolicy } from "@flowstate/shared/partner/ingest-bus";
import type { TenantMap } from "./tenant-map.ts";

export interface BusPolicyWriter {
  /** Rewrites the policies of these shards (coalesced: one write per shard per round). */
  schedule(shards: Iterable<number>): void;
  /** Resolves once nothing is pending. */
  idle(): Promise<void>;
}

/**
 * Keeps each shard bus's policy equal to the accounts the map admits to it (ADR 0003). Writes are
 * serialised and coalesced, so a burst of connects costs one PutPermission per shard; a failed
 * write is retried on the next change or map refresh, and the handler still drops events from
 * accounts it does not know, so a lagging policy admits nothing that is processed.
 */
export async function busPolicyWriter(
  eventBridge: EventBridgeClient,
  busNames: readonly string[],
  map: () => TenantMap,
  logger: Logger,
): Promise<BusPolicyWriter> {
  const arns = await Promise.all(
    busNames.map(async (Name) => (await eventBridge.send(new DescribeEventBusCommand({ Name }))).Arn!),
  );
  const pending = new Set<number>();
  let running: Promise<void> = Promise.resolve();

  const flush = async () => {
    const shards = [...pending];
    pending.clear();
    for (const shard of shards) {
      try {
        const accounts = map().accountsOfShard(shard);
        await eventBridge.send(
          new PutPermissionCommand({ EventBusName: busNames[shard], Policy: partnerBusPolicy(arns[shard]!, accounts) }),
        );
        logger.info({ shard, accounts: accounts.length }, "partner bus policy written");
      } catch (err) {
        logger.error({ err, shard }, "partner bus policy not written; retried on the next change");
      }
    }
  };

  return {
    schedule(shards) {
      const before = pending.size;
      for (const s of shards) if (s >= 0 && s < busNames.length) pending.add(s);
      if (pending.size > before) running = running.then(flush);
    },
    idle: () => running,
  };
}
