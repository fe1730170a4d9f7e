import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { beforeAll, describe, test } from "vitest";
import { MAX_RECEIVE_COUNT } from "./definition.ts";
import { listDeadLetters } from "./dlq.ts";
import { receiveUntilDeadLettered } from "./failing-handler.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const sqs = aws.data("sqs");
// A stack of its own: only privacy-svc's queue and DLQ exist under this prefix.
const prefix = `dlq${randomBytes(4).toString("hex")}`;
const o = { aws, prefix, stage: "dev" };
const queueName = `${prefix}-dev-privacy-svc`;

/** `npm run dlq -- …` as an operator runs it, against this test's stack. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(nodeBinary, [join(import.meta.dirname, "dlq.ts"), ...args], {
    env: { ...process.env, SERVICE_PREFIX: prefix, STAGE: "dev" },
  });
  return stdout;
}
const depth = async (url: string) =>
  Number(
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] })))
      .Attributes?.ApproximateNumberOfMessages,
  );

describe("npm run dlq: list and redrive dead letters (moto)", () => {
  let queue: string;
  let dlq: string;
  beforeAll(async () => {
    dlq = (await sqs.send(new CreateQueueCommand({ QueueName: `${queueName}-dlq` }))).QueueUrl!;
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ["QueueArn"] }),
    );
    queue = (
      await sqs.send(
        new CreateQueueCommand({
          QueueName: queueName,
          Attributes: {
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: Attributes!.QueueArn,
              maxReceiveCount: MAX_RECEIVE_COUNT,
            }),
          },
        }),
      )
    ).QueueUrl!;
  });

  test("a poison message reaches the DLQ after exactly maxReceiveCount receives, list shows it, redrive brings it back once, unchanged", async () => {
    const body = JSON.stringify({ id: `evt_${randomBytes(8).toString("hex")}`, type: "ExportRequested" });
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue,
        MessageBody: body,
        MessageAttributes: { trace: { DataType: "String", StringValue: "t-1" } },
      }),
    );
    const receives = await receiveUntilDeadLettered(sqs, queue, MAX_RECEIVE_COUNT);
    assert.equal(receives, MAX_RECEIVE_COUNT);
    assert.equal(await depth(dlq), 1);

    const listed = await listDeadLetters(o);
    assert.deepEqual(
      listed.find((d) => d.service === "privacy-svc"),
      { service: "privacy-svc", dlq: `${queueName}-dlq`, messages: 1, inFlight: 0 },
    );
    assert.equal(listed.find((d) => d.service === "audit-svc")?.messages, null, "absent queues are said so");
    assert.match(await cli("list"), new RegExp(`privacy-svc\\s+${queueName}-dlq\\s+1 messages, 0 in flight`));

    assert.equal((await cli("redrive", "privacy-svc")).trim(), "privacy-svc: 1 message moved back from the DLQ");
    assert.equal(await depth(dlq), 0);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ["All"],
        MaxNumberOfMessages: 10,
      }),
    );
    assert.equal(Messages.length, 1, "once");
    assert.equal(Messages[0]!.Body, body);
    assert.equal(Messages[0]!.MessageAttributes?.trace?.StringValue, "t-1");

    assert.equal((await cli("redrive", "privacy-svc")).trim(), "privacy-svc: 0 messages moved back from the DLQ");
    await assert.rejects(cli("redrive", "no-such-svc"), /no such queue: no-such-svc/);
  });
});
