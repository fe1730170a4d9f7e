/**
 * Issue 25: notification fan-out, from a domain event arriving on notify-svc's queue to a webhook
 * delivered and verified by its receiver. One tenant with three webhook endpoints (three receivers
 * written with `standardwebhooks`, on loopback: the local-development exception), one event every
 * 200 ms through a moto SQS queue this file starts, the real consumer and the delivery worker on a
 * throwaway PostgreSQL schema. The latency of each delivery is its receiver's arrival time minus
 * the moment the event was sent to the queue; the floor is moto's own receive latency, measured in
 * the same run (an empty send → receive round trip).
 *
 * Run alone: node_modules/.bin/node -e 'const m = await import("./bench/75-notify.bench.ts"); console.table(await m.default())'
 */

import { randomBytes } from "node:crypto";
import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { notifyConsumer } from "@flowstate/notify-svc/consumers/consumer";
import { eventOfEachKind } from "@flowstate/notify-svc/testing/events";
import { startNotifySvc } from "@flowstate/notify-svc/testing/harness";
import { type Receiver, startReceiver } from "@flowstate/notify-svc/testing/receiver";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue } from "@flowstate/shared/consumer/test-queue";
import { startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import type { BenchRow } from "./lib/types.ts";

const EVENTS = 20;
const GAP_MS = 200;
const ENDPOINTS = 3;
const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

export default async function notifyFanOut(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
  await ensurePostgres(url);
  await ensureDatabase(url);
  const moto = await startMoto();
  const sqs = createAwsClients({ endpoint: moto.endpoint, credentials }).data("sqs");
  const h = await startNotifySvc({ prefix: "bench_notify" });
  const queue = await createTestQueue(sqs, { prefix: "bench-notify", visibilityTimeout: 30 });
  const receivers: Receiver[] = [];
  const consumer = createConsumer({
    sqs,
    queueUrl: queue.queueUrl,
    orm: h.db.orm,
    logger: h.deps.logger,
    definition: notifyConsumer,
    deps: h.deps,
    waitTimeSeconds: 1,
  }).start();
  try {
    // The floor: moto's send → receive on an idle queue of its own.
    const floorQueue = await createTestQueue(sqs, { prefix: "bench-notify-floor" });
    const floor: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      await sqs.send(new SendMessageCommand({ QueueUrl: floorQueue.queueUrl, MessageBody: "{}" }));
      await sqs.send(new ReceiveMessageCommand({ QueueUrl: floorQueue.queueUrl, WaitTimeSeconds: 1 }));
      floor.push(Date.now() - t0);
    }
    await floorQueue.delete();

    const tenantId = `tnt_${randomBytes(8).toString("hex")}`;
    for (let i = 0; i < ENDPOINTS; i++) {
      const r = await startReceiver();
      const res = await h.call("POST", `/v1/tenants/${tenantId}/notifications/endpoints`, {
        as: { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" },
        body: { url: r.url },
      });
      r.secrets.push(((await res.json()) as { secret: string }).secret);
      receivers.push(r);
    }
    const sentAt = new Map<string, number>();
    for (let i = 0; i < EVENTS; i++) {
      const event = eventOfEachKind(tenantId)["offer.released"]!;
      sentAt.set(`msg_${event.id.slice(4)}`, Date.now());
      await sqs.send(new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: JSON.stringify(event) }));
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    await waitFor(() => receivers.every((r) => r.accepted().length === EVENTS), 60_000, "every delivery");
    const latencies = receivers.flatMap((r) => r.accepted().map((a) => a.at - sentAt.get(a.id)!));
    const p50 = percentile(latencies, 50);
    return [
      { name: "moto SQS send → receive (floor, idle queue)", value: percentile(floor, 50), unit: "ms" },
      {
        name: `notification fan-out p50, event on the queue → webhook delivered (${ENDPOINTS} endpoints, n=${latencies.length})`,
        value: p50,
        unit: "ms",
        baseline: { name: "moto SQS send → receive", value: percentile(floor, 50) },
        ratio: p50 / Math.max(1, percentile(floor, 50)),
        target: "< 1000 ms",
        met: p50 < 1000,
      },
      { name: "notification fan-out p99 (same run)", value: percentile(latencies, 99), unit: "ms" },
    ];
  } finally {
    await consumer.stop();
    for (const r of receivers) await r.close();
    await queue.delete();
    await h.close();
    await moto.stop();
  }
}
