import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import {
  CreateEventBusCommand,
  PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
} from "@aws-sdk/client-eventbridge";
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { describe, it } from "vitest";
import { startMoto } from "./moto.ts";

/** Three rules on a bus of its own, one queue each; six events, one of them malformed. */
const RULES = {
  a: { "detail-type": ["A"] },
  b: { "detail-type": ["B"] },
  kind: { detail: { kind: ["x"] } },
};
const EVENTS = [
  { DetailType: "A", Source: "test", Detail: { n: 1, kind: "x" } },
  { DetailType: "B", Source: "test", Detail: { n: 2 } },
  { DetailType: "A", Source: "test", Detail: { n: 3 } },
  { DetailType: "A", Source: "", Detail: { n: 4 } },
  { DetailType: "C", Source: "test", Detail: { n: 5, kind: "x" } },
  { DetailType: "B", Source: "test", Detail: { n: 6, kind: "y" } },
];

/** What a moto at `endpoint` answers to EVENTS, and what each rule's queue then holds (ids and times left out). */
async function deliveries(endpoint: string) {
  const aws = createAwsClients({ endpoint });
  const [events, sqs] = [aws.data("eventbridge"), aws.data("sqs")];
  const bus = `launcher${randomBytes(4).toString("hex")}`;
  await events.send(new CreateEventBusCommand({ Name: bus }));
  const queues: Record<string, string> = {};
  for (const [name, pattern] of Object.entries(RULES)) {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${bus}-${name}` }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }));
    await events.send(new PutRuleCommand({ Name: name, EventBusName: bus, EventPattern: JSON.stringify(pattern) }));
    await events.send(
      new PutTargetsCommand({ Rule: name, EventBusName: bus, Targets: [{ Id: "q", Arn: Attributes!.QueueArn! }] }),
    );
    queues[name] = QueueUrl!;
  }
  const answer = await events.send(
    new PutEventsCommand({
      Entries: EVENTS.map((e) => ({ ...e, EventBusName: bus, Detail: JSON.stringify(e.Detail) })),
    }),
  );
  const tooMany = await events
    .send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => ({ ...EVENTS[0]!, Detail: "{}" })) }))
    .then(
      () => "accepted",
      (err: Error) => err.name,
    );
  const received: Record<string, unknown[]> = {};
  for (const [name, url] of Object.entries(queues)) {
    const bodies: unknown[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      if (!Messages.length) break;
      for (const m of Messages) {
        const { id, time, ...rest } = JSON.parse(m.Body!) as Record<string, unknown>;
        assert.ok(id && time !== undefined);
        bodies.push(rest);
      }
    }
    received[name] = bodies.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  }
  const entries = answer.Entries!.map((e) => e.ErrorCode ?? (e.EventId ? "EventId" : "none"));
  return { entries, failed: answer.FailedEntryCount, tooMany, received };
}

/** ADR 0010: the launcher changes how long moto takes, never what it answers. */
describe("moto through the launcher (deploy/local/moto-server.py)", () => {
  it("answers PutEvents and delivers each event to the same rules' queues as plain moto_server", async () => {
    const plain = await startMoto({ plain: true });
    try {
      const [ours, theirs] = await Promise.all([deliveries(process.env.AWS_ENDPOINT_URL!), deliveries(plain.endpoint)]);
      assert.deepEqual(ours, theirs);
      // And what that is: each event to the rules its pattern matches, the malformed one refused in place.
      assert.deepEqual(ours.entries, ["EventId", "EventId", "EventId", "InvalidArgument", "EventId", "EventId"]);
      assert.equal(ours.tooMany, "ValidationException");
      const numbers = (name: string) => ours.received[name]!.map((b) => (b as { detail: { n: number } }).detail.n);
      assert.deepEqual(numbers("a").sort(), [1, 3]);
      assert.deepEqual(numbers("b").sort(), [2, 6]);
      assert.deepEqual(numbers("kind").sort(), [1, 5]);
    } finally {
      await plain.stop();
    }
  }, 120_000);

  it("keeps a connection open from one request to the next, with and without a body", async () => {
    const endpoint = new URL(process.env.AWS_ENDPOINT_URL!);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, body?: string) =>
      new Promise<{ reused: boolean; status: number; connection: string | undefined }>((resolve, reject) => {
        const req = request(
          {
            host: endpoint.hostname,
            port: endpoint.port,
            agent,
            method,
            path: method === "GET" ? "/moto-api/" : "/",
            timeout: 10_000,
            headers: body
              ? {
                  "content-type": "application/x-www-form-urlencoded",
                  authorization:
                    "AWS4-HMAC-SHA256 Credential=testing/20261127/eu-central-1/sqs/aws4_request, SignedHeaders=host, Signature=0",
                }
              : {},
          },
          (res) => {
            res.resume();
            res.on("end", () =>
              resolve({ reused: req.reusedSocket, status: res.statusCode!, connection: res.headers.connection }),
            );
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} timed out: the connection was not answered`)));
        req.on("error", reject);
        req.end(body);
      });
    try {
      const answers = [
        await call("GET"),
        await call("GET"),
        await call("POST", "Action=ListQueues"),
        await call("GET"),
      ];
      assert.deepEqual(
        answers.map((a) => [a.status, a.reused, a.connection === "close"]),
        [
          [200, false, false],
          [200, true, false],
          [200, true, false],
          [200, true, false],
        ],
      );
    } finally {
      agent.destroy();
    }
  });
});
