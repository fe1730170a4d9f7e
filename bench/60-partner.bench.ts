/**
 * Partner events from the us-east-1 queue to eu-central-1 sync-state rows (issue 14), on a moto
 * this file starts itself, the real bootstrap (partner ingest in us-east-1, domain bus and
 * partner-svc queue in eu-central-1), partner-inbound's pump and partner-svc's consumer with a
 * throwaway PostgreSQL schema, all in this process.
 *
 * moto delivers an EventBridge event into SQS in ~130 ms, one at a time (ARCHITECTURE.md), so the
 * whole path is moto-bound on the local stack. The rows therefore also give each stage's own
 * capacity: the pump (us-east-1 queue → PutEvents, measured with its output going to the bus) and
 * the consumer (a backlogged eu-central-1 queue → rows), with AWS calls and CPU per event, which is
 * what carries over to real AWS.
 */
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { startInboundLoop } from "@flowstate/partner-inbound/inbound-loop";
import { partnerEnvelope } from "@flowstate/partner-inbound/publish";
import { TenantMap } from "@flowstate/partner-inbound/tenant-map";
import { opportunityDetail, partnerEvent } from "@flowstate/partner-inbound/testdata/partner-events";
import { partnerConsumer } from "@flowstate/partner-svc/consumers/handlers";
import { migrations } from "@flowstate/partner-svc/db/migrations";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue } from "@flowstate/shared/consumer/test-queue";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { bootstrap } from "../deploy/local/bootstrap.ts";
import { startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import type { BenchRow } from "./lib/types.ts";

const END_TO_END = 20; // moto-bound: ~130 ms each on an idle machine, far more under load
const STAGE = 100;
const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };
const account = "222222222222";
const tenant = "tnt_benchpartner01";

function countCalls(...clients: { middlewareStack: unknown }[]) {
  let calls = 0;
  for (const client of clients) {
    (client.middlewareStack as { add(mw: unknown, o: object): void }).add(
      (next: (a: unknown) => Promise<unknown>) => (args: unknown) => {
        calls++;
        return next(args);
      },
      { step: "deserialize", name: `benchCalls${Math.random()}` },
    );
  }
  return { total: () => calls, reset: () => (calls = 0) };
}

const bodies = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify(partnerEvent("Opportunity Updated", opportunityDetail(`O${tag}${i}`), { account })),
  );

async function sendAll(aws: AwsClients, queueUrl: string, list: string[]) {
  for (let i = 0; i < list.length; i += 10) {
    await aws.partner("partner-sqs").send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: list.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
      }),
    );
  }
}

const cpu = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

export default async function partnerBench(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
  await ensurePostgres(url);
  await ensureDatabase(url);
  const moto = await startMoto();
  const logger = createLogger({ service: "partner-bench", level: "warn" });
  const aws = createAwsClients({ endpoint: moto.endpoint, credentials });
  const db = await openTestDatabase({ url, prefix: "bench_partner", migrations });
  const prefix = `pb${Date.now().toString(36)}`;
  try {
    const { outputs } = await bootstrap({ aws, prefix, stage: "dev", mailFrom: `no-reply@${prefix}.local` });
    const map = new TenantMap(2);
    map.connect(tenant, account);
    const rows = async () =>
      Number((await db.orm.em.fork().execute(`SELECT count(*) AS n FROM "${db.schema}".partner_opportunity`))[0]!.n);

    // 1. The whole path: us-east-1 queue → pump → domain bus → partner-svc queue → consumer → rows.
    await sendAll(aws, outputs.partner.queueUrl, bodies(END_TO_END, "e"));
    const started = performance.now();
    const pump = startInboundLoop({
      sqs: aws.partner("partner-sqs"),
      queueUrl: outputs.partner.queueUrl,
      eventBridge: aws.data("eventbridge"),
      busName: outputs.busName,
      map: () => map,
      logger,
      waitTimeSeconds: 1,
    });
    const consumer = createConsumer({
      sqs: aws.data("sqs"),
      queueUrl: outputs.queues["partner-svc"]!.url,
      orm: db.orm,
      logger,
      definition: partnerConsumer,
      waitTimeSeconds: 1,
    }).start();
    await waitFor(async () => ((await rows()) >= END_TO_END ? true : undefined), 120_000, "partner events", 200);
    const endToEnd = END_TO_END / ((performance.now() - started) / 1000);
    await Promise.all([pump.stop(), consumer.stop()]);

    // 2. The pump alone, its output going to a bus with no rule (nothing for moto to deliver).
    const pumpCalls = countCalls(aws.partner("partner-sqs"), aws.data("eventbridge"));
    await sendAll(aws, outputs.partner.queueUrl, bodies(STAGE, "p"));
    pumpCalls.reset();
    const pumpCpu = process.cpuUsage();
    const pumpStart = performance.now();
    const pump2 = startInboundLoop({
      sqs: aws.partner("partner-sqs"),
      queueUrl: outputs.partner.queueUrl,
      eventBridge: aws.data("eventbridge"),
      busName: "default",
      map: () => map,
      logger,
      waitTimeSeconds: 1,
    });
    await waitFor(async () => (pump2.stats().published >= STAGE ? true : undefined), 120_000, "partner events", 200);
    const pumpRate = STAGE / ((performance.now() - pumpStart) / 1000);
    const pumpCpuMs = cpu(pumpCpu) / STAGE;
    const pumpCallsPerEvent = pumpCalls.total() / STAGE;
    await pump2.stop();

    // 3. The consumer alone, from a backlogged queue of PartnerEventReceived envelopes.
    const q = await createTestQueue(aws.data("sqs"), { prefix: "pbench" });
    const envelopes = bodies(STAGE, "c").map((b) => {
      const e = JSON.parse(b);
      return JSON.stringify(
        partnerEnvelope({
          tenant_id: tenant,
          account_id: account,
          partner_event_id: e.id,
          detail_type: "Opportunity Updated",
          event_time: new Date().toISOString(),
          catalog: "AWS",
          opportunity_id: e.detail.opportunity.identifier,
        }),
      );
    });
    await sendBodies(aws.data("sqs"), q.queueUrl, envelopes);
    const before = await rows();
    const consumerCpu = process.cpuUsage();
    const consumerStart = performance.now();
    const consumer2 = createConsumer({
      sqs: aws.data("sqs"),
      queueUrl: q.queueUrl,
      orm: db.orm,
      logger,
      definition: partnerConsumer,
      waitTimeSeconds: 1,
    }).start();
    await waitFor(async () => ((await rows()) >= before + STAGE ? true : undefined), 120_000, "partner events", 200);
    const consumerRate = STAGE / ((performance.now() - consumerStart) / 1000);
    const consumerCpuMs = cpu(consumerCpu) / STAGE;
    await consumer2.stop();
    await q.delete();

    return [
      {
        name: `partner events → eu-central-1 rows, whole path on moto (n=${END_TO_END})`,
        value: endToEnd,
        unit: "events/s",
      },
      { name: `partner-inbound pump: us-east-1 queue → PutEvents (n=${STAGE})`, value: pumpRate, unit: "events/s" },
      {
        name: "  AWS calls per event (receive 10, PutEvents 10, delete batch)",
        value: pumpCallsPerEvent,
        unit: "calls/event",
      },
      { name: "  CPU per event", value: pumpCpuMs, unit: "ms CPU/event" },
      { name: `partner-svc consumer: backlogged queue → rows (n=${STAGE})`, value: consumerRate, unit: "events/s" },
      { name: "  CPU per event (consumer and pg client in this process)", value: consumerCpuMs, unit: "ms CPU/event" },
    ];
  } finally {
    await db.close();
    await moto.stop();
  }
}
