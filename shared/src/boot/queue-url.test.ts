import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { afterAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { createTestQueue, type TestQueue } from "../consumer/test-queue.ts";
import { queueUrlOf } from "./queue-url.ts";

const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
const queues: TestQueue[] = [];
afterAll(async () => {
  for (const q of queues) await q.delete();
});

describe("queueUrlOf", () => {
  it("finds a queue's URL by its name", async () => {
    const q = await createTestQueue(sqs, { prefix: "queue-url" });
    queues.push(q);
    const name = q.queueUrl.split("/").pop()!;
    assert.equal(await queueUrlOf(sqs, name), q.queueUrl);
  });

  it("rejects for a queue that does not exist", async () => {
    await assert.rejects(queueUrlOf(sqs, `t-missing-${randomBytes(5).toString("hex")}`), {
      name: "QueueDoesNotExist",
    });
  });
});
