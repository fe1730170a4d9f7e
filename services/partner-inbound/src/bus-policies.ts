import { DescribeEventBusCommand, type EventBridgeClient, PutPermissionCommand } from "@aws-sdk/client-eventbridge";
import type { ConnectedAccounts } from "@flowstate/contracts/internal/connector";
import type { Logger } from "@flowstate/shared/log/logger";
import { partnerBusPolicy, partnerBusShard } from "@flowstate/shared/partner/ingest-bus";

export interface BusPolicyWriter {
  /** Rewrites the policies of these shards (coalesced: one write per shard per round). */
  schedule(shards: Iterable<number>): void;
  /** Resolves once nothing is pending. */
  idle(): Promise<void>;
  /** No retry timer left behind (shutdown). */
  stop(): void;
}

/** Rounds of write-then-check in one flush before the rest is left to the retry timer. */
const MAX_ROUNDS = 3;

/**
 * Keeps each shard bus's policy equal to the accounts connector-svc lists as connected (ADR 0003).
 * The policy is one document per bus, written whole by every replica, and each connector event
 * reaches one replica: a policy built from the replica's own map (as it was until 2026-11-28)
 * dropped the accounts the other replica had just admitted, until the next map refresh, and
 * Partner Central's events from them were refused at the bus meanwhile. So every write is built
 * from connector-svc's list, fetched for it (connector-svc commits a connection before its event
 * exists, so the list is never older than the event that scheduled the write). And since another
 * replica may write a list it fetched earlier just after this one wrote, each round reads the list
 * again after writing and rewrites the shards whose accounts moved: the last writer always checks
 * after its write, so the policies settle on the list.
 *
 * Writes are serialised and coalesced, so a burst of connects costs one PutPermission per shard; a
 * failed fetch or write is retried after `retryMs`, and the handler still drops events from accounts
 * it does not know, so a lagging policy admits nothing that is processed.
 */
export async function busPolicyWriter(o: {
  eventBridge: EventBridgeClient;
  busNames: readonly string[];
  /** connector-svc's list of connected accounts (connector-client.ts). */
  connectors: () => Promise<ConnectedAccounts["connectors"]>;
  logger: Logger;
  retryMs?: number;
  /**
   * Every shard is rewritten this often whatever happened (main.ts: the map's refresh interval), so
   * a policy that drifted (a write lost with its replica, a hand edit) is back within it.
   */
  resyncMs?: number;
}): Promise<BusPolicyWriter> {
  const { eventBridge, busNames, logger } = o;
  const arns = await Promise.all(
    busNames.map(async (Name) => (await eventBridge.send(new DescribeEventBusCommand({ Name }))).Arn!),
  );
  const pending = new Set<number>();
  let running: Promise<void> = Promise.resolve();
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  /** Each shard's accounts, sorted: one hash per account per fetched list, not one per shard written. */
  const byShard = (list: ConnectedAccounts["connectors"]) => {
    const shards = new Map<number, string[]>();
    for (const account of new Set(list.map((c) => c.account_id))) {
      const shard = partnerBusShard(account, busNames.length);
      const accounts = shards.get(shard);
      if (accounts) accounts.push(account);
      else shards.set(shard, [account]);
    }
    return (shard: number) => (shards.get(shard) ?? []).sort();
  };

  const later = (shards: Iterable<number>) => {
    for (const s of shards) pending.add(s);
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      running = running.then(flush);
    }, o.retryMs ?? 5_000);
    retry.unref();
  };

  const flush = async () => {
    let shards = [...pending];
    pending.clear();
    for (let round = 0; shards.length && round < MAX_ROUNDS; round++) {
      const written = new Map<number, string[]>();
      try {
        const accountsOf = byShard(await o.connectors());
        for (const shard of shards) {
          const accounts = accountsOf(shard);
          await eventBridge.send(
            new PutPermissionCommand({
              EventBusName: busNames[shard],
              Policy: partnerBusPolicy(arns[shard]!, accounts),
            }),
          );
          written.set(shard, accounts);
          logger.info({ shard, accounts: accounts.length }, "partner bus policy written");
        }
        const now = byShard(await o.connectors());
        shards = [...written].filter(([shard, accounts]) => now(shard).join() !== accounts.join()).map(([s]) => s);
      } catch (err) {
        // The round's shards again, written or not: a written one was not checked yet.
        logger.error({ err }, "partner bus policies not written; retried");
        later(shards);
        return;
      }
    }
    if (shards.length) later(shards);
  };

  const schedule = (shards: Iterable<number>) => {
    const before = pending.size;
    for (const s of shards) if (s >= 0 && s < busNames.length) pending.add(s);
    if (pending.size > before) running = running.then(flush);
  };
  const resync = o.resyncMs ? setInterval(() => schedule(busNames.keys()), o.resyncMs).unref() : undefined;

  return {
    schedule,
    idle: () => running,
    stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(resync);
    },
  };
}
