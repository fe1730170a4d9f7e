import {
  OUTBOX_BACKLOG_METRIC,
  OUTBOX_LAG_DIMENSION,
  OUTBOX_LAG_NAMESPACE,
  OUTBOX_OLDEST_PENDING_AGE_METRIC,
} from "@flowstate/shared/outbox/lag-metric";
import { Duration, Stack, type StackProps } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as elbv2 from "aws-cdk-lib/aws-elasticloadbalancingv2";
import * as kms from "aws-cdk-lib/aws-kms";
import * as logs from "aws-cdk-lib/aws-logs";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct } from "constructs";
import { type DeploymentNames, relayServices } from "../services.ts";
import type { DeploySettings } from "../settings.ts";
import type { ComputeStack } from "./compute.ts";

export const METRIC_NAMESPACE = "Flowstate";

/** The log lines (pino's `msg`) that count as an outbox relay failure and an export failure. */
export const OUTBOX_FAILURE_PATTERN =
  '{ ($.msg = "outbox publish partly failed*") || ($.msg = "outbox relay round failed*") || ($.msg = "outbox event is larger*") }';
export const EXPORT_FAILURE_PATTERN = '{ ($.msg = "export failed*") || ($.msg = "in-process export failed*") }';
/**
 * privacy-svc's AccountDeleted reaction, the last effect of an account deletion to land, logs how
 * long after the deletion it erased (`erasure_lag_seconds`, services/privacy-svc erase-exports.ts).
 */
export const ERASURE_LAG_MESSAGE = "exports erased after account deletion";
export const ERASURE_LAG_FIELD = "erasure_lag_seconds";
export const ERASURE_LAG_PATTERN = `{ ($.msg = "${ERASURE_LAG_MESSAGE}") && ($.${ERASURE_LAG_FIELD} >= 0) }`;
/**
 * §7 check 7. An erasure finished later than this raises the lag alarm; a deletion not erased at all
 * (its AccountDeleted retried or stuck) shows as the age of privacy-svc's oldest queued message, or
 * lands in its DLQ (the DLQ alarms). Normally seconds: the event's hop plus one handler.
 */
export const ERASURE_LAG_ALARM_SECONDS = 3600;
/**
 * Outbox lag: the oldest unpublished event's age, which each relay writes once a minute as an EMF
 * line (shared/src/outbox/lag-metric.ts). Normally milliseconds; a retry backs off 60 s at most,
 * so five minutes means publishing has stopped (EventBridge, its endpoint, or a wedged relay).
 */
export const OUTBOX_LAG_ALARM_SECONDS = 300;

export interface ObservabilityStackProps extends StackProps {
  settings: DeploySettings;
  names: DeploymentNames;
  compute: ComputeStack;
  dataKey: kms.IKey;
}

/**
 * Alarms (any DLQ message, 5xx rate and p99 latency at each door, outbox lag and relay failures,
 * export failures) into one SNS topic, and one dashboard. Log groups are the compute stack's (one per
 * service, 90 days); the metrics from logs are filters on them. Everything here is in eu-central-1.
 */
/** A dead letter older than this raises its own alarm: two days, of the DLQ's fourteen. */
export const DLQ_AGE_ALARM_SECONDS = 2 * 24 * 3600;

export class ObservabilityStack extends Stack {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityStackProps) {
    super(scope, id, props);
    const { settings, names, compute } = props;
    // Imported by ARN: a grant then lands in the grantee's own policy, not in the key's (no cycle between stacks).
    const dataKey = kms.Key.fromKeyArn(this, "DataKey", props.dataKey.keyArn);
    this.topic = new sns.Topic(this, "Alarms", {
      topicName: `${settings.prefix}-${settings.stage}-alarms`,
      masterKey: dataKey,
      enforceSSL: true,
    });
    if (settings.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    const dashboard = new cloudwatch.Dashboard(this, "Dashboard", {
      dashboardName: `${settings.prefix}-${settings.stage}`,
    });

    const dlqWidgets: cloudwatch.IMetric[] = [];
    for (const q of names.definition.queues) {
      const depth = queueMaximum(q.dlqName, "ApproximateNumberOfMessagesVisible", 1);
      dlqWidgets.push(depth);
      this.alarm(`Dlq-${q.service}`, depth, 0, `A message is in ${q.dlqName}: runbook docs/runbooks/redrive-a-dlq.md`);
      // Depth says a message arrived; age says one is being left there (the DLQ keeps it 14 days, then it is gone).
      const age = queueMaximum(q.dlqName, "ApproximateAgeOfOldestMessage", 5);
      this.alarm(
        `DlqAge-${q.service}`,
        age,
        DLQ_AGE_ALARM_SECONDS,
        `A message has waited in ${q.dlqName} over 2 days (kept 14): runbook docs/runbooks/redrive-a-dlq.md`,
      );
    }

    const doorWidgets: cloudwatch.IWidget[] = [];
    for (const [service, running] of compute.services) {
      if (!running.targetGroup) continue;
      const tg = running.targetGroup.metrics;
      const errors = tg.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT, {
        period: Duration.minutes(5),
        statistic: "Sum",
      });
      const requests = tg.requestCount({ period: Duration.minutes(5), statistic: "Sum" });
      const rate = new cloudwatch.MathExpression({
        expression: "100 * errors / IF(requests > 0, requests, 1)",
        usingMetrics: { errors, requests },
        label: `${service} 5xx %`,
        period: Duration.minutes(5),
      });
      this.alarm(`FiveXx-${service}`, rate, 1, `${service}: more than 1% of answers are 5xx`);
      const p99 = tg.targetResponseTime({ statistic: "p99", period: Duration.minutes(5) });
      this.alarm(`P99-${service}`, p99, 1, `${service}: p99 latency above 1 s`);
      doorWidgets.push(
        new cloudwatch.GraphWidget({ title: `${service} 5xx %`, left: [rate] }),
        new cloudwatch.GraphWidget({ title: `${service} p99 s`, left: [p99] }),
      );
    }

    const outbox: cloudwatch.IMetric[] = [];
    // Only where a relay runs: another database service never logs a relay failure, and an alarm that
    // cannot fire reads as cover it does not give.
    for (const service of relayServices) {
      const metric = this.fromLogs(compute, service, "OutboxFailures", OUTBOX_FAILURE_PATTERN);
      outbox.push(metric);
      this.alarm(`Outbox-${service}`, metric, 0, `${service}: the outbox relay failed to publish (events are late)`);
    }
    // Lag from the relay's own EMF figures (no metric filter: CloudWatch Logs extracts them). Maximum:
    // every replica reports the same table. Missing data is not breaching: a service that is down
    // raises its ECS and door alarms, not this one.
    const lagAge: cloudwatch.IMetric[] = [];
    const lagBacklog: cloudwatch.IMetric[] = [];
    for (const service of relayServices) {
      const lag = (metricName: string) =>
        new cloudwatch.Metric({
          namespace: OUTBOX_LAG_NAMESPACE,
          metricName,
          dimensionsMap: { [OUTBOX_LAG_DIMENSION]: service },
          statistic: "Maximum",
          period: Duration.minutes(5),
        });
      const age = lag(OUTBOX_OLDEST_PENDING_AGE_METRIC);
      // A label only on the graphs: on an alarm's metric it makes CloudFormation's metric-math form.
      lagAge.push(age.with({ label: service }));
      lagBacklog.push(lag(OUTBOX_BACKLOG_METRIC).with({ label: service }));
      this.alarm(
        `OutboxLag-${service}`,
        age,
        OUTBOX_LAG_ALARM_SECONDS,
        `${service}: an outbox event has waited over 5 minutes to be published (outbox lag)`,
      );
    }
    const exports = this.fromLogs(compute, "privacy-svc", "ExportFailures", EXPORT_FAILURE_PATTERN);
    this.alarm("ExportFailures", exports, 0, "privacy-svc: an export failed");

    // §7 check 7: the deletion lag (p95 and max on the dashboard) and two alarms: an erasure that
    // took over an hour, and one that has not happened an hour on (the event waiting in the queue).
    const lagMax = this.fromLogs(compute, "privacy-svc", "AccountErasureLag", ERASURE_LAG_PATTERN, {
      value: `$.${ERASURE_LAG_FIELD}`,
      statistic: "Maximum",
      unit: cloudwatch.Unit.SECONDS,
    });
    const lagP95 = lagMax.with({ statistic: "p95" });
    this.alarm(
      "AccountErasureLag",
      lagMax,
      ERASURE_LAG_ALARM_SECONDS,
      "privacy-svc: an account's data was erased more than an hour after its deletion (deletion lag)",
    );
    const privacyQueue = names.definition.queues.find((q) => q.service === "privacy-svc");
    const waiting = privacyQueue ? queueMaximum(privacyQueue.queueName, "ApproximateAgeOfOldestMessage", 5) : undefined;
    if (waiting)
      this.alarm(
        "AccountErasureStuck",
        waiting,
        ERASURE_LAG_ALARM_SECONDS,
        `An event has waited over an hour in ${privacyQueue!.queueName}: an account deletion may not be erased yet (deletion lag)`,
      );

    dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: "DLQ messages", left: dlqWidgets, width: 12 }),
      new cloudwatch.GraphWidget({ title: "Outbox relay failures", left: outbox, width: 12 }),
      new cloudwatch.GraphWidget({
        title: "Outbox lag: oldest pending s (left), pending rows (right)",
        left: lagAge,
        right: lagBacklog,
        width: 12,
      }),
      ...doorWidgets,
      new cloudwatch.GraphWidget({ title: "Export failures", left: [exports] }),
      new cloudwatch.GraphWidget({
        title: "Account deletion lag s (p95, max)",
        left: [lagP95, lagMax],
        ...(waiting && { right: [waiting] }),
      }),
    );
  }

  /**
   * A metric from a service's log lines: by default a count (1 per matching line); with `value`, the
   * line's field (a JSON selector such as `$.erasure_lag_seconds`), with no default so that quiet
   * periods are missing data rather than zeros pulling the percentiles down.
   */
  private fromLogs(
    compute: ComputeStack,
    service: string,
    name: string,
    pattern: string,
    measured?: { value: string; statistic: string; unit: cloudwatch.Unit },
  ): cloudwatch.Metric {
    const group = compute.services.get(service as never)!.logGroup;
    new logs.CfnMetricFilter(this, `${name}-${service}`, {
      logGroupName: group.logGroupName,
      filterPattern: pattern,
      metricTransformations: [
        measured
          ? {
              metricNamespace: `${METRIC_NAMESPACE}/${service}`,
              metricName: name,
              metricValue: measured.value,
              unit: measured.unit,
            }
          : { metricNamespace: `${METRIC_NAMESPACE}/${service}`, metricName: name, metricValue: "1", defaultValue: 0 },
      ],
    });
    return new cloudwatch.Metric({
      namespace: `${METRIC_NAMESPACE}/${service}`,
      metricName: name,
      statistic: measured?.statistic ?? "Sum",
      period: Duration.minutes(5),
    });
  }

  private alarm(id: string, metric: cloudwatch.IMetric, threshold: number, description: string) {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: `${description} (docs/runbooks/respond-to-an-alarm.md)`,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}

/** An SQS queue metric's maximum over `minutes` (the DLQ alarms: depth and age of the oldest message). */
export function queueMaximum(queueName: string, metricName: string, minutes: number): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: "AWS/SQS",
    metricName,
    dimensionsMap: { QueueName: queueName },
    statistic: "Maximum",
    period: Duration.minutes(minutes),
  });
}
