import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { decodeMessage } from "@flowstate/shared/consumer/decode-message";
import type { Logger } from "@flowstate/shared/log/logger";
import type { TenantMap } from "./tenant-map.ts";

/**
 * Keeps the account → tenant map current between rebuilds: ConnectorConnected adds the tenant's
 * seller account, ConnectorDisconnected removes it. Not shared/src/consumer (that one records
 * processed ids in a database, and partner-inbound has none): applying either event twice is
 * harmless, and the periodic rebuild from connector-svc repairs any reordering.
 */
export function startConnectorEvents(options: {
  sqs: SQSClient;
  queueUrl: string;
  map: () => TenantMap;
  logger: Logger;
  waitTimeSeconds?: number;
}): { stop(): Promise<void> } {
  const log = options.logger.child({ component: "connector-events" });
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const { Messages = [] } = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: options.waitTimeSeconds ?? 20,
          }),
          { abortSignal: abort.signal },
        );
        const done: { Id: string; ReceiptHandle: string }[] = [];
        for (const message of Messages) {
          const decoded = decodeMessage(message.Body);
          if (decoded.ok && decoded.key === "ConnectorConnected.v1") {
            const data = decoded.event.data as { tenant_id: string; account_id: string };
            options.map().connect(data.tenant_id, data.account_id);
          } else if (decoded.ok && decoded.key === "ConnectorDisconnected.v1") {
            options.map().disconnect((decoded.event.data as { tenant_id: string }).tenant_id);
          } else {
            log.warn(
              { message_id: message.MessageId, reason: decoded.ok ? decoded.key : decoded.reason },
              "event rejected",
            );
            continue; // left for the DLQ
          }
          done.push({ Id: message.MessageId!, ReceiptHandle: message.ReceiptHandle! });
        }
        if (done.length) {
          await options.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: options.queueUrl, Entries: done }));
        }
      } catch (err) {
        if (abort.signal.aborted) break;
        log.error({ err }, "connector event round failed");
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
