import { randomBytes } from "node:crypto";
import {
  CreateEventBusCommand,
  DeleteEventBusCommand,
  DeleteRuleCommand,
  type EventBridgeClient,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
} from "@aws-sdk/client-eventbridge";

export interface TestBus {
  busName: string;
  delete(): Promise<void>;
}

/**
 * Creates a uniquely named event bus with one rule routing the events `pattern` matches (default:
 * every `flowstate.*` event) to `queueArn`, the shape the bootstrap gives each consumer, for one test.
 *
 * @example
 * const bus = await createTestBus(eventBridge, queue.queueArn);
 * // a consumer's own rule, as deploy/local gives it:
 * const bus = await createTestBus(eventBridge, queue.queueArn, eventPattern(serviceCatalog["privacy-svc"].consumes));
 */
export async function createTestBus(
  eventBridge: EventBridgeClient,
  queueArn: string,
  pattern: object = { source: [{ prefix: "flowstate." }] },
): Promise<TestBus> {
  const busName = `t-bus-${randomBytes(5).toString("hex")}`;
  const rule = `${busName}-to-queue`;
  await eventBridge.send(new CreateEventBusCommand({ Name: busName }));
  await eventBridge.send(
    new PutRuleCommand({
      Name: rule,
      EventBusName: busName,
      EventPattern: JSON.stringify(pattern),
    }),
  );
  await eventBridge.send(
    new PutTargetsCommand({ Rule: rule, EventBusName: busName, Targets: [{ Id: "queue", Arn: queueArn }] }),
  );
  return {
    busName,
    async delete() {
      await eventBridge.send(new RemoveTargetsCommand({ Rule: rule, EventBusName: busName, Ids: ["queue"] }));
      await eventBridge.send(new DeleteRuleCommand({ Name: rule, EventBusName: busName }));
      await eventBridge.send(new DeleteEventBusCommand({ Name: busName }));
    },
  };
}
