import { randomBytes } from "node:crypto";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { ProbeEvent } from "@flowstate/contracts/events/test-catalog";
import { newEventId } from "../outbox/event-id.ts";

/** A valid `PlatformProbe.v1` envelope, the test catalog's event (contracts/src/events/test-catalog.ts). */
export function probeEvent(key: string, seq: number): ProbeEvent {
  return {
    id: newEventId(),
    type: "PlatformProbe",
    version: 1,
    source: "flowstate.platform-test",
    occurred_at: new Date().toISOString(),
    actor: { kind: "system", service: "platform-test" },
    data: { key, seq },
  };
}

export const uniqueKey = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

/** Sends bodies straight to a queue, 10 per call (tests of the consumer skip EventBridge on purpose). */
export async function sendBodies(sqs: SQSClient, queueUrl: string, bodies: string[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
      }),
    );
  }
}

/**
 * Polls `check` every `everyMs` (default 50) until it is truthy or `ms` elapse. `what` may be a
 * function, read when the wait times out (so it can name the last thing `check` saw).
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  ms = 10_000,
  what: string | (() => string) = "condition",
  everyMs = 50,
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) {
      throw new Error(`timed out after ${ms} ms waiting for ${typeof what === "function" ? what() : what}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
