import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import { startQueueLoop } from "@flowstate/shared/consumer/queue-loop";
import type { Logger } from "@flowstate/shared/log/logger";
import { extractMetadata, type Rejection } from "./extract-metadata.ts";
import { partnerEnvelope, publishEnvelopes } from "./publish.ts";
import type { TenantMap } from "./tenant-map.ts";

export interface InboundStats {
  received: number;
  published: number;
  dropped: Record<Rejection | "disconnected_account", number>;
  /** Events of an account the map does not know, left on the queue for a later receive (then the DLQ). */
  deferred: number;
  publishFailures: number;
  receiveErrors: number;
}

/** The counters of a pump that has handled nothing (or has not started: the map is not loaded yet). */
export const idleStats = (): InboundStats => ({
  received: 0,
  published: 0,
  dropped: { malformed: 0, unknown_detail_type: 0, unknown_catalog: 0, disconnected_account: 0 },
  deferred: 0,
  publishFailures: 0,
  receiveErrors: 0,
});

export interface InboundLoop {
  stop(): Promise<void>;
  stats(): InboundStats;
}

export interface InboundOptions {
  /** The us-east-1 partner queue's client (aws.partner("partner-sqs")). */
  sqs: SQSClient;
  queueUrl: string;
  /** The eu-central-1 domain bus's client (aws.data("eventbridge")). */
  eventBridge: EventBridgeClient;
  busName: string;
  map: () => TenantMap;
  logger: Logger;
  waitTimeSeconds?: number;
}

/**
 * The us-east-1 queue → eu-central-1 bus pump. Each round receives up to 10 forwarded Partner
 * Central events, keeps their metadata for connected tenants, publishes those in one PutEvents,
 * and deletes what was published or dropped (malformed, or of a disconnected account) in one
 * DeleteMessageBatch; an event of an account the map does not know stays on the queue. Start it
 * only once the map is loaded (main.ts): with an empty map every event would wait for nothing. A message is deleted only
 * after EventBridge accepted its event, so a crash loses nothing; its redelivery carries the same
 * derived event id, so nothing is applied twice (ADR 0003). Logs carry ids and reasons, never a
 * payload.
 */
export function startInboundLoop(options: InboundOptions): InboundLoop {
  const { sqs, queueUrl, logger } = options;
  const log = logger.child({ component: "partner-inbound" });
  const stats = idleStats();
  const loop = startQueueLoop({
    sqs,
    queueUrl,
    ...(options.waitTimeSeconds !== undefined ? { waitTimeSeconds: options.waitTimeSeconds } : {}),
    async handle(messages) {
      stats.received += messages.length;
      const done: Message[] = [];
      const outgoing: { envelope: EventEnvelope; message: Message }[] = [];
      for (const message of messages) {
        const extracted = extractMetadata(parseJson(message.Body));
        const found = extracted.ok ? options.map().lookup(extracted.value.account_id) : undefined;
        if (found === "unknown") {
          // Not deleted: the tenant may have connected a moment ago (its event or the next refresh
          // brings it). The message comes back after the visibility timeout, and after
          // maxReceiveCount receives waits in the DLQ for `npm run dlq -- redrive partner-inbound`.
          stats.deferred++;
          log.warn({ message_id: message.MessageId }, "partner event of an unknown account left for a later receive");
          continue;
        }
        if (!extracted.ok || found === "gone" || !found) {
          const reason = extracted.ok ? "disconnected_account" : extracted.reason;
          stats.dropped[reason]++;
          log.info({ message_id: message.MessageId, reason }, "partner event dropped");
          done.push(message);
          continue;
        }
        outgoing.push({ envelope: partnerEnvelope({ ...extracted.value, tenant_id: found.tenant }), message });
      }
      try {
        const accepted = await publishEnvelopes(
          options.eventBridge,
          options.busName,
          outgoing.map((o) => o.envelope),
        );
        outgoing.forEach((o, i) => {
          if (accepted.has(i)) done.push(o.message);
          else stats.publishFailures++;
        });
        stats.published += accepted.size;
      } catch (err) {
        stats.publishFailures += outgoing.length;
        log.error({ err, events: outgoing.length }, "publishing to the domain bus failed; SQS redelivers");
      }
      return done;
    },
    onError(err) {
      stats.receiveErrors++;
      log.error({ err }, "partner queue round failed");
    },
  });
  return { stop: () => loop.stop(), stats: () => structuredClone(stats) };
}

function parseJson(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? "");
  } catch {
    return undefined;
  }
}
