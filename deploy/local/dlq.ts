/**
 * `npm run dlq -- list` and `npm run dlq -- redrive <queue>`: the dead-letter queues of the stack
 * the environment names (SERVICE_PREFIX, STAGE, AWS_ENDPOINT_URL, as the bootstrap reads them).
 *
 * `list` shows, per consumer queue (and partner-inbound's us-east-1 queue), its DLQ's depth.
 * `redrive <queue>` (a service, `privacy-svc`, or a queue name) moves what its DLQ holds back to the
 * queue, body and attributes unchanged: after the fix of whatever made it fail, each message is
 * handled once more (consumers are idempotent by event id, so a message that was in fact handled
 * before it dead-lettered is a no-op). It moves at most the depth it found when it started, so a
 * message that fails again is not cycled; that one comes back after `maxReceiveCount` receives.
 *
 * Receive, send, then delete, rather than SQS's StartMessageMoveTask: the same on moto and AWS,
 * and a crash between send and delete leaves a duplicate (handled once by the idempotent consumer),
 * never a loss.
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { defineStack } from "./definition.ts";
import { definePartnerIngest } from "./partner-definition.ts";
import { readStackSettings } from "./settings.ts";

export interface DlqOptions {
  aws: AwsClients;
  prefix: string;
  stage: string;
}

interface DeadLetterPair {
  /** The consuming service (`privacy-svc`, `partner-inbound`). */
  service: string;
  queueName: string;
  dlqName: string;
  sqs: SQSClient;
}

/** Every queue of the stack with its DLQ, from the same definition the bootstrap applies. */
export function deadLetterPairs(o: DlqOptions): DeadLetterPair[] {
  const def = defineStack({ prefix: o.prefix, stage: o.stage, accountId: "000000000000", mailFrom: "unused@x.y" });
  const partner = definePartnerIngest(o);
  return [
    ...def.queues.map((q) => ({
      service: q.service,
      queueName: q.queueName,
      dlqName: q.dlqName,
      sqs: o.aws.data("sqs"),
    })),
    {
      service: "partner-inbound",
      queueName: partner.queueName,
      dlqName: partner.dlqName,
      sqs: o.aws.partner("partner-sqs"),
    },
  ];
}

const urlOf = async (sqs: SQSClient, name: string): Promise<string | undefined> => {
  try {
    return (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (err) {
    if ((err as { name?: string }).name?.includes("NonExistentQueue") || (err as Error).name === "QueueDoesNotExist")
      return undefined;
    throw err;
  }
};

const depthOf = async (sqs: SQSClient, url: string) => {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return {
    messages: Number(Attributes.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
  };
};

export interface DlqDepth {
  service: string;
  dlq: string;
  /** Null when the DLQ does not exist (the stack is not bootstrapped, or not this part of it). */
  messages: number | null;
  inFlight: number | null;
}

/** The depth of every DLQ of the stack. */
export async function listDeadLetters(o: DlqOptions): Promise<DlqDepth[]> {
  return Promise.all(
    deadLetterPairs(o).map(async (p) => {
      const url = await urlOf(p.sqs, p.dlqName);
      const depth = url ? await depthOf(p.sqs, url) : { messages: null, inFlight: null };
      return { service: p.service, dlq: p.dlqName, ...depth };
    }),
  );
}

/** Moves the messages `queue`'s DLQ holds back to `queue` (a service or a queue name); returns how many moved. */
export async function redrive(o: DlqOptions, queue: string): Promise<{ service: string; moved: number }> {
  const pair = deadLetterPairs(o).find((p) => p.service === queue || p.queueName === queue || p.dlqName === queue);
  if (!pair) throw new Error(`no such queue: ${queue} (npm run dlq -- list names them)`);
  const { sqs } = pair;
  const [source, dlq] = await Promise.all([urlOf(sqs, pair.queueName), urlOf(sqs, pair.dlqName)]);
  if (!source || !dlq) throw new Error(`${pair.queueName} or its DLQ does not exist`);
  const budget = (await depthOf(sqs, dlq)).messages;
  let moved = 0;
  for (let empty = 0; moved < budget && empty < 3; ) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlq,
        MaxNumberOfMessages: Math.min(10, budget - moved),
        VisibilityTimeout: 60,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ["All"],
      }),
    );
    if (!Messages.length) {
      empty++;
      continue;
    }
    empty = 0;
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: source,
        Entries: Messages.map((m, i) => ({
          Id: String(i),
          MessageBody: m.Body!,
          ...(m.MessageAttributes
            ? { MessageAttributes: m.MessageAttributes as Record<string, MessageAttributeValue> }
            : {}),
        })),
      }),
    );
    const ok = (sent.Successful ?? []).map((s) => Messages[Number(s.Id)]!);
    if (ok.length) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: dlq,
          Entries: ok.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
    moved += ok.length;
    // A send SQS refused stays in the DLQ (visible again after 60 s): stop rather than spin on it.
    if (sent.Failed?.length) break;
  }
  return { service: pair.service, moved };
}

if (import.meta.main) {
  const [command, queue] = process.argv.slice(2);
  const settings = readStackSettings();
  const aws = createAwsClients({ endpoint: settings.endpoint, allowed: ["sqs", "partner-sqs"] });
  const o = { aws, prefix: settings.prefix, stage: settings.stage };
  if (command === "list") {
    for (const d of await listDeadLetters(o)) {
      const depth = d.messages === null ? "absent" : `${d.messages} messages, ${d.inFlight} in flight`;
      console.log(`${d.service.padEnd(16)} ${d.dlq.padEnd(44)} ${depth}`);
    }
  } else if (command === "redrive" && queue) {
    const { service, moved } = await redrive(o, queue);
    console.log(`${service}: ${moved} message${moved === 1 ? "" : "s"} moved back from the DLQ`);
  } else {
    console.error("usage: npm run dlq -- list | redrive <service or queue>");
    process.exit(2);
  }
}
