import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { Logger } from "@flowstate/shared/log/logger";
import { extractMetadata, type Rejection } from "./extract-metadata.ts";
import { partnerEnvelope, publishEnvelopes } from "./publish.ts";
import type { TenantMap } from "./tenant-map.ts";

export interface InboundStats {
  received: number;
  published: number;
  dropped: Record<Rejection | "unknown_account", number>;
  publishFailures: number;
  receiveErrors: number;
}

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
 * and deletes what was published or dropped in one DeleteMessageBatch. A message is deleted only
 * after EventBridge accepted its event, so a crash loses nothing; its redelivery carries the same
 * derived event id, so nothing is applied twice (ADR 0003). Logs carry ids and reasons, never a
 * payload.
 */
export function startInboundLoop(options: InboundOptions): InboundLoop {
  const { sqs, queueUrl, logger } = options;
  const log = logger.child({ component: "partner-inbound" });
  const stats: InboundStats = {
    received: 0,
    published: 0,
    dropped: { malformed: 0, unknown_detail_type: 0, unknown_catalog: 0, unknown_account: 0 },
    publishFailures: 0,
    receiveErrors: 0,
  };
  const abort = new AbortController();

  async function round(): Promise<void> {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: options.waitTimeSeconds ?? 20,
      }),
      { abortSignal: abort.signal },
    );
    const messages = answer.Messages ?? [];
    stats.received += messages.length;
    const done: { Id: string; ReceiptHandle: string }[] = [];
    const outgoing: { envelope: EventEnvelope; receipt: string; id: string }[] = [];
    for (const message of messages) {
      const extracted = extractMetadata(parseJson(message.Body));
      const tenant = extracted.ok ? options.map().tenantOf(extracted.value.account_id) : undefined;
      if (!extracted.ok || !tenant) {
        const reason = extracted.ok ? "unknown_account" : extracted.reason;
        stats.dropped[reason]++;
        log.info({ message_id: message.MessageId, reason }, "partner event dropped");
        done.push({ Id: message.MessageId!, ReceiptHandle: message.ReceiptHandle! });
        continue;
      }
      const envelope = partnerEnvelope({ ...extracted.value, tenant_id: tenant });
      outgoing.push({ envelope, receipt: message.ReceiptHandle!, id: message.MessageId! });
    }
    try {
      const accepted = await publishEnvelopes(
        options.eventBridge,
        options.busName,
        outgoing.map((o) => o.envelope),
      );
      outgoing.forEach((o, i) => {
        if (accepted.has(i)) done.push({ Id: o.id, ReceiptHandle: o.receipt });
        else stats.publishFailures++;
      });
      stats.published += accepted.size;
    } catch (err) {
      stats.publishFailures += outgoing.length;
      log.error({ err, events: outgoing.length }, "publishing to the domain bus failed; SQS redelivers");
    }
    if (done.length) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done }));
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await round();
      } catch (err) {
        if (abort.signal.aborted) break;
        stats.receiveErrors++;
        log.error({ err }, "partner queue round failed");
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
    stats: () => structuredClone(stats),
  };
}

function parseJson(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? "");
  } catch {
    return undefined;
  }
}
