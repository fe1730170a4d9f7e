import type { SQSClient } from "@aws-sdk/client-sqs";
import type { eventCatalog } from "@flowstate/contracts/events/catalog";
import type { Invalidation } from "@flowstate/contracts/internal/identity";
import { defineStatelessConsumer, type HandlersFor } from "@flowstate/shared/consumer/define-consumer";
import { type StatelessConsumer, startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";

/** What the handlers act on: this instance's caches (Gateway.invalidate). */
interface Caches {
  invalidate: (list: readonly Invalidation[]) => void;
}

/**
 * What a gateway does with the events that change facts it caches: drop them. mcp-gateway's
 * pipeline caches the same facts, so its consumer (src/revocations.ts) runs these handlers too.
 *
 * Not FeatureFlagChanged (issue 26; ADR 0011, amendment): a flag changes only through identity-svc's
 * `PUT /v1/tenants/{id}/features`, which pushes the `features` invalidation to every door instance
 * with a live lease before it answers, and a door without one trusts no cached fact; flags are
 * cached for 1 s besides. The event, which reached one instance of a door's shared queue, added
 * nothing but a receive and a delete per change at each door.
 */
export const cacheInvalidations: HandlersFor<typeof eventCatalog, "AccessRevoked", Caches> = {
  "AccessRevoked.v1": (event, caches) => caches.invalidate([event.data]),
};

/**
 * The gateway's consumer (queue `<prefix>-<stage>-edge-gateway`): AccessRevoked events from
 * revoking calls that went through OTHER gateway instances, or through none (an operator verb).
 * Stateless: the gateway has no database and needs none, since applying an invalidation twice is
 * harmless.
 */
export const revocationConsumer = defineStatelessConsumer<Caches>()({
  service: "edge-gateway",
  handlers: cacheInvalidations,
});

export interface RevocationConsumerOptions extends Caches {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  /** Drops every cached access fact (Gateway.invalidateAll). */
  invalidateAll: () => void;
  waitTimeSeconds?: number;
  /** The gateway's registry: `consumer_dead_lettered_total` for events it can never handle. */
  metrics?: MetricsRegistry;
}

export type RevocationConsumer = StatelessConsumer;

/**
 * Starts the revocation consumer. After a failed receive the events of the gap may be lost to this
 * instance, so the first successful receive afterwards drops every cached fact: an outage of the
 * queue can cost cache hits, never a revocation.
 *
 * @example
 * const consumer = startRevocationConsumer({ sqs, queueUrl, logger, invalidate: gw.invalidate, invalidateAll: gw.invalidateAll });
 */
export function startRevocationConsumer(options: RevocationConsumerOptions): RevocationConsumer {
  const { logger } = options;
  return startStatelessConsumer({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    logger,
    definition: revocationConsumer,
    context: { invalidate: options.invalidate },
    onRecovered() {
      options.invalidateAll();
      logger.warn("receiving again after an error; dropped every cached access fact");
    },
    ...(options.waitTimeSeconds !== undefined ? { waitTimeSeconds: options.waitTimeSeconds } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
}
