import type { EntityManager } from "@mikro-orm/postgresql";
import { type Backlog, readBacklog } from "./claim-batch.ts";

/**
 * The outbox lag as CloudWatch metrics, with no agent and no scraper: one CloudWatch embedded
 * metric format (EMF) line on stdout, which the ECS awslogs driver ships to the service's log group
 * and CloudWatch Logs turns into metrics (PutLogEvents needs no `x-amzn-logs-format` header for
 * that). Spec: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 * The observability stack (deploy/aws/stacks/observability.ts) alarms on these names.
 */
export const OUTBOX_LAG_NAMESPACE = "Flowstate";
/** The one dimension: the service's name, also the `service` field of every log line. */
export const OUTBOX_LAG_DIMENSION = "service";
export const OUTBOX_OLDEST_PENDING_AGE_METRIC = "OutboxOldestPendingAgeSeconds";
export const OUTBOX_BACKLOG_METRIC = "OutboxBacklog";
export const OUTBOX_LAG_MESSAGE = "outbox lag";
/** Once a minute: the alarm's period is five, so a late or lost line never leaves it without data. */
export const DEFAULT_OUTBOX_LAG_INTERVAL_MS = 60_000;

/**
 * One EMF document. The root also carries `level`, `time` and `msg` as every pino line does, so the
 * line reads like the others in the log group and in `npm start`; EMF ignores members it does not
 * reference. The metric values and the dimension are root members, as the spec requires.
 *
 * @example
 * outboxLagLine("offers-svc", { pending: 3, oldestPendingAgeSeconds: 12.5 })
 * // {"level":"info",…,"_aws":{"Timestamp":…,"CloudWatchMetrics":[{"Namespace":"Flowstate",…}]},"service":"offers-svc","OutboxOldestPendingAgeSeconds":12.5,"OutboxBacklog":3}
 */
export function outboxLagLine(service: string, backlog: Backlog, at = new Date()): string {
  return JSON.stringify({
    level: "info",
    time: at.toISOString(),
    msg: OUTBOX_LAG_MESSAGE,
    _aws: {
      Timestamp: at.getTime(),
      CloudWatchMetrics: [
        {
          Namespace: OUTBOX_LAG_NAMESPACE,
          Dimensions: [[OUTBOX_LAG_DIMENSION]],
          Metrics: [
            { Name: OUTBOX_OLDEST_PENDING_AGE_METRIC, Unit: "Seconds" },
            { Name: OUTBOX_BACKLOG_METRIC, Unit: "Count" },
          ],
        },
      ],
    },
    [OUTBOX_LAG_DIMENSION]: service,
    [OUTBOX_OLDEST_PENDING_AGE_METRIC]: backlog.oldestPendingAgeSeconds,
    [OUTBOX_BACKLOG_METRIC]: backlog.pending,
  });
}

/**
 * Straight to stdout, not through the logger: a LOG_LEVEL of `warn` must not silence the figure an
 * alarm reads (the alarm treats missing data as fine). Synchronous on Linux for files and pipes, as
 * pino's destination is, so the two never interleave within a line.
 */
export const writeToStdout = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/**
 * Reads the service's backlog (the same statement as the `outbox_backlog` gauge) and writes one
 * EMF line: the relay does this every `intervalMs` when started with `lagMetric`.
 *
 * @example
 * await emitOutboxLag({ em: orm.em.fork(), schema: "offers", service: "offers-svc", write: writeToStdout });
 */
export async function emitOutboxLag(options: {
  em: EntityManager;
  schema: string;
  service: string;
  write: (line: string) => void;
}): Promise<Backlog> {
  const backlog = await readBacklog(options.em, options.schema);
  options.write(outboxLagLine(options.service, backlog));
  return backlog;
}
