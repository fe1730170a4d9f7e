/**
 * The local AWS emulator as the project starts it (deploy/local/moto-server.py with its fixes:
 * jsonpath-ng's parses cached, SendMessage no longer counting the queue, each event matched once
 * against the bus's rules, connections kept open, and the per-request routing and logging cut)
 * against moto_server as installed, in the same run: PutEvents batches of 10 on Flowstate's bus as
 * `npm start` bootstraps it, each event delivered by the bus's rule to an SQS queue that nobody
 * reads (audit-svc's queue when audit-svc is not running, as in most benches). Figure: moto's CPU
 * per delivered event, from /proc. Plain moto spends about half a second per event re-parsing
 * constant JSONPath expressions, so it gets few batches; then the launcher again once its queue
 * holds several thousand messages, to show a send no longer grows with the queue.
 */
import { PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { cpuMs } from "./lib/processes.ts";
import { benchAws } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const detail = (i: number) =>
  JSON.stringify({
    id: `evt_bench${String(i).padStart(8, "0")}`,
    type: "McpToolCalled",
    version: 1,
    source: "flowstate.mcp-gateway",
    occurred_at: new Date().toISOString(),
    data: { tool: "get_marketplace_connector_status", outcome: "ok", duration_ms: 2 },
  });

/** moto's CPU ms per event over `batches` PutEvents of 10, and its queue's size after. */
async function measure(plain: boolean, batches: number[]) {
  const { moto, aws, outputs } = await benchAws({ plain, fastEvents: true });
  try {
    const bus = outputs.busName;
    let sent = 0;
    const send = async (n: number) => {
      const before = cpuMs(moto.process.pid!);
      for (let b = 0; b < n; b++) {
        const res = await aws.data("eventbridge").send(
          new PutEventsCommand({
            Entries: Array.from({ length: 10 }, () => ({
              EventBusName: bus,
              Source: "flowstate.mcp-gateway",
              DetailType: "McpToolCalled",
              Detail: detail(sent++),
            })),
          }),
        );
        if (res.FailedEntryCount) throw new Error(`PutEvents: ${res.FailedEntryCount} failed`);
      }
      return (cpuMs(moto.process.pid!) - before) / (n * 10);
    };
    const figures: number[] = [];
    for (const n of batches) figures.push(await send(n));
    // Every event reached audit-svc's queue (which also checks the count SendMessage no longer makes).
    const queue = await aws.data("sqs").send(
      new GetQueueAttributesCommand({
        QueueUrl: outputs.queues["audit-svc"]!.url,
        AttributeNames: ["ApproximateNumberOfMessages"],
      }),
    );
    const held = Number(queue.Attributes?.ApproximateNumberOfMessages);
    if (held !== sent) throw new Error(`audit-svc's queue holds ${held} messages, ${sent} sent`);
    return { figures, sent };
  } finally {
    await moto.stop();
  }
}

export default async function motoBench(): Promise<BenchRow[]> {
  const plain = await measure(true, [1, 3]);
  const launcher = await measure(false, [1, 30, 400, 30]);
  const [plainMs, ours, oursFull] = [plain.figures[1]!, launcher.figures[1]!, launcher.figures[3]!];
  return [
    {
      name: "moto: PutEvents → rule → SQS, CPU per delivered event (queue fresh)",
      value: Math.round(ours * 100) / 100,
      unit: "ms CPU/event",
      baseline: { name: "moto_server as installed", value: Math.round(plainMs * 10) / 10 },
      ratio: ours / plainMs,
    },
    {
      name: `moto: the same with ${launcher.sent - 300} messages already in the queue`,
      value: Math.round(oursFull * 100) / 100,
      unit: "ms CPU/event",
      baseline: { name: "the launcher, queue fresh", value: Math.round(ours * 100) / 100 },
      ratio: oursFull / ours,
    },
  ];
}
