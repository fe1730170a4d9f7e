import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { describe, it } from "vitest";
import { MOTO_DEFAULT_ACCOUNT_ID } from "../connector-role/moto-account.ts";
import { defineStack } from "../local/definition.ts";
import { deadLetterPairs, redrive } from "../local/dlq.ts";
import { receiveUntilDeadLettered } from "../local/failing-handler.ts";
import { type CfnJson, synthesize } from "./synth.ts";

/*
 * §7 check 20, "DLQ alarms". moto stores CloudWatch alarms but never evaluates them, so this test
 * evaluates the rule itself: it takes the DLQ depth alarm exactly as the CDK app synthesizes it
 * (metric, dimension, statistic, period, threshold, comparison, missing data), reads that metric's
 * value the way CloudWatch derives it for AWS/SQS (ApproximateNumberOfMessagesVisible is the
 * queue's ApproximateNumberOfMessages attribute) from the DLQ the alarm's QueueName dimension
 * names, on moto, and applies the rule. It shows the synthesized rule turns ALARM when a poison
 * message lands and OK after the redrive; it does not show CloudWatch firing or the SNS action.
 */

const endpoint = process.env.AWS_ENDPOINT_URL;
if (!endpoint) throw new Error("AWS_ENDPOINT_URL is not set: run through scripts/test.ts");

// A prefix of this file's own: the synthesized names and the moto queues are this test's alone.
const prefix = `dlqalarm${randomBytes(3).toString("hex")}`;
const { built, settings, template } = synthesize({
  settings: { prefix, stage: "dev", account: MOTO_DEFAULT_ACCOUNT_ID, mailFrom: `no-reply@${prefix}.example` },
});
const def = defineStack({ prefix, stage: "dev", accountId: settings.account, mailFrom: settings.mailFrom });
const aws = createAwsClients({ endpoint });
const sqs = aws.data("sqs");

interface AlarmProps {
  Namespace: string;
  MetricName: string;
  Dimensions: { Name: string; Value: string }[];
  Statistic: string;
  Period: number;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  Threshold: number;
  ComparisonOperator: string;
  TreatMissingData: string;
  AlarmDescription: string;
}
const alarmsOf = (stack: (typeof built.stacks)[number]): AlarmProps[] =>
  Object.values(template(stack).toJSON().Resources as Record<string, { Type: string; Properties: CfnJson }>)
    .filter((r) => r.Type === "AWS::CloudWatch::Alarm")
    .map((r) => r.Properties);
const depthAlarms = [...alarmsOf(built.observability), ...alarmsOf(built.partner)].filter(
  (a) => a.Namespace === "AWS/SQS" && a.MetricName === "ApproximateNumberOfMessagesVisible",
);
const queueOf = (a: AlarmProps) => a.Dimensions.find((d) => d.Name === "QueueName")?.Value;

/**
 * CloudWatch's rule for a single-metric alarm, evaluated by this test: the statistic over the
 * samples of each period, the last EvaluationPeriods periods, ALARM when DatapointsToAlarm of them
 * breach, a period without data treated as TreatMissingData says. Only what the DLQ alarms use is
 * implemented; anything else fails the test rather than being evaluated wrongly.
 */
function evaluate(a: AlarmProps, periods: number[][]): "OK" | "ALARM" {
  const statistic: Record<string, (xs: number[]) => number> = {
    Maximum: (xs) => Math.max(...xs),
    Minimum: (xs) => Math.min(...xs),
    Sum: (xs) => xs.reduce((s, x) => s + x, 0),
    Average: (xs) => xs.reduce((s, x) => s + x, 0) / xs.length,
    SampleCount: (xs) => xs.length,
  };
  const compare: Record<string, (v: number, t: number) => boolean> = {
    GreaterThanThreshold: (v, t) => v > t,
    GreaterThanOrEqualToThreshold: (v, t) => v >= t,
    LessThanThreshold: (v, t) => v < t,
    LessThanOrEqualToThreshold: (v, t) => v <= t,
  };
  const stat = statistic[a.Statistic];
  const cmp = compare[a.ComparisonOperator];
  assert.ok(stat && cmp, `unsupported rule ${a.Statistic} ${a.ComparisonOperator}`);
  assert.ok(["notBreaching", "missing"].includes(a.TreatMissingData), `unsupported ${a.TreatMissingData}`);
  const window = periods.slice(-a.EvaluationPeriods);
  const breaching = window.filter((samples) => samples.length > 0 && cmp(stat(samples), a.Threshold)).length;
  return breaching >= (a.DatapointsToAlarm ?? a.EvaluationPeriods) ? "ALARM" : "OK";
}

/** AWS/SQS ApproximateNumberOfMessagesVisible of a queue, as CloudWatch samples it. */
const visible = async (url: string) =>
  Number(
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] })))
      .Attributes?.ApproximateNumberOfMessages,
  );

describe("a DLQ's depth alarm, as synthesized, evaluated on the local stack's DLQ (moto)", () => {
  it("every DLQ of the local definition has exactly one depth alarm, on the same queue name, alarming on any message", () => {
    const dlqs = deadLetterPairs({ aws, prefix, stage: "dev" }).map((p) => p.dlqName);
    assert.deepEqual(depthAlarms.map(queueOf).sort(), [...dlqs].sort());
    for (const a of depthAlarms) {
      // One message is enough: Maximum over the period, strictly above 0, one period, no data is not a breach.
      assert.equal(evaluate(a, [[1]]), "ALARM", `${queueOf(a)}: one message`);
      assert.equal(evaluate(a, [[0]]), "OK", `${queueOf(a)}: empty`);
      assert.equal(evaluate(a, [[]]), "OK", `${queueOf(a)}: no data`);
    }
  });

  it("privacy-svc's: OK before a poison message, ALARM once it is in the DLQ after maxReceiveCount receives, OK after the redrive handled it", async () => {
    const pair = def.queues.find((q) => q.service === "privacy-svc")!;
    const alarm = depthAlarms.find((a) => queueOf(a) === pair.dlqName);
    assert.ok(alarm, `no depth alarm names ${pair.dlqName}`);
    // The rule as docs/reliability.md row 20 states it; the evaluation below reads it from the template, not from here.
    const { Statistic, Period, EvaluationPeriods, Threshold, ComparisonOperator, TreatMissingData } = alarm;
    assert.deepEqual(
      { Statistic, Period, EvaluationPeriods, Threshold, ComparisonOperator, TreatMissingData },
      {
        Statistic: "Maximum",
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 0,
        ComparisonOperator: "GreaterThanThreshold",
        TreatMissingData: "notBreaching",
      },
    );

    // The local bootstrap's queue pair (definition.ts's names and maxReceiveCount), as dlq.test.ts makes it.
    const dlq = (await sqs.send(new CreateQueueCommand({ QueueName: pair.dlqName }))).QueueUrl!;
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ["QueueArn"] }),
    );
    const redrivePolicy = { deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: pair.maxReceiveCount };
    const queue = (
      await sqs.send(
        new CreateQueueCommand({
          QueueName: pair.queueName,
          Attributes: { RedrivePolicy: JSON.stringify(redrivePolicy) },
        }),
      )
    ).QueueUrl!;

    // Each state is judged on a period of its own, sampled at that point (Period is 60 s in the template).
    assert.equal(evaluate(alarm, [[await visible(dlq)]]), "OK", "before the poison message");

    await sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: JSON.stringify({ poison: true }) }));
    const receives = await receiveUntilDeadLettered(sqs, queue, pair.maxReceiveCount);
    assert.equal(receives, pair.maxReceiveCount);
    assert.equal(evaluate(alarm, [[await visible(dlq)]]), "ALARM", "the poison message is in the DLQ");

    assert.deepEqual(await redrive({ aws, prefix, stage: "dev" }, "privacy-svc"), { service: "privacy-svc", moved: 1 });
    assert.equal(evaluate(alarm, [[await visible(dlq)]]), "OK", "after the redrive");
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queue, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
    );
    assert.equal(Messages.length, 1, "the redriven message is handled once more, once");
  });
});
