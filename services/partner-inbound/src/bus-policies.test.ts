import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CreateEventBusCommand, DeleteEventBusCommand, DescribeEventBusCommand } from "@aws-sdk/client-eventbridge";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createLogger } from "@flowstate/shared/log/logger";
import { partnerBusShard } from "@flowstate/shared/partner/ingest-bus";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type BusPolicyWriter, busPolicyWriter } from "./bus-policies.ts";
import { TenantMap } from "./tenant-map.ts";

const eventBridge = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).partner("partner-eventbridge");
const logger = createLogger({ service: "partner-inbound" });
type Connector = { tenant_id: string; account_id: string };

/** Two seller accounts that forward to the same one of two shard buses. */
function sameShard(): [string, string] {
  const account = () => String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  const a = account();
  for (;;) {
    const b = account();
    if (b !== a && partnerBusShard(b, 2) === partnerBusShard(a, 2)) return [a, b];
  }
}

/**
 * Two partner-inbound replicas, each with its own account map and policy writer, over one pair of
 * shard buses in moto, and connector-svc's list (what `connectors` answers) as the truth. Each
 * connector event reaches one replica, as the one queue delivers it.
 */
describe("the shard buses' policies written by two replicas", () => {
  const busNames = [0, 1].map(() => `t-partner-${randomBytes(5).toString("hex")}`);
  let truth: Connector[] = [];
  const writers: BusPolicyWriter[] = [];
  beforeAll(async () => {
    for (const Name of busNames) await eventBridge.send(new CreateEventBusCommand({ Name }));
  });
  afterAll(async () => {
    for (const w of writers) w.stop();
    for (const Name of busNames) await eventBridge.send(new DeleteEventBusCommand({ Name }));
  });

  const replica = async (connectors: () => Promise<Connector[]> = async () => truth) => {
    const writer = await busPolicyWriter({ eventBridge, busNames, connectors, logger, retryMs: 100 });
    writers.push(writer);
    return { writer, map: new TenantMap(2, (shards) => writer.schedule(shards)) };
  };
  const admitted = async (shard: number): Promise<string[]> => {
    const { Policy } = await eventBridge.send(new DescribeEventBusCommand({ Name: busNames[shard] }));
    const accounts = JSON.parse(Policy!).Statement[0].Condition.StringEquals["aws:PrincipalAccount"];
    return [accounts].flat().sort();
  };

  it("admits an account one replica connected after the other replica connects another in its shard", async () => {
    const [one, two] = [await replica(), await replica()];
    const [a, b] = sameShard();
    truth = [{ tenant_id: "tnt_a", account_id: a }];
    one.map.connect("tnt_a", a);
    await one.writer.idle();
    assert.deepEqual(await admitted(partnerBusShard(a, 2)), [a]);
    // The second replica never saw tnt_a's event: its own map has only tnt_b.
    truth = [...truth, { tenant_id: "tnt_b", account_id: b }];
    two.map.connect("tnt_b", b);
    await two.writer.idle();
    assert.deepEqual(await admitted(partnerBusShard(a, 2)), [a, b].sort(), "tnt_a's account is still admitted");
    // And a disconnection seen by one replica removes the account whatever the other's map holds.
    truth = truth.filter((c) => c.tenant_id !== "tnt_b");
    one.map.disconnect("tnt_b");
    two.map.disconnect("tnt_b");
    await Promise.all([one.writer.idle(), two.writer.idle()]);
    assert.deepEqual(await admitted(partnerBusShard(a, 2)), [a]);
  });

  it("rewrites a policy that a replica with an older list wrote over a newer one", async () => {
    const [a, b] = sameShard();
    truth = [{ tenant_id: "tnt_a", account_id: a }];
    // The slow replica's first fetch answers the list of before tnt_b connected, but only after
    // the other replica has written the newer one.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const before = truth;
    let first = true;
    const slow = await replica(async () => {
      if (!first) return truth;
      first = false;
      await released;
      return before;
    });
    const fast = await replica();
    slow.map.connect("tnt_a", a);
    truth = [...truth, { tenant_id: "tnt_b", account_id: b }];
    fast.map.connect("tnt_b", b);
    await fast.writer.idle();
    assert.deepEqual(await admitted(partnerBusShard(a, 2)), [a, b].sort());
    release();
    await slow.writer.idle();
    assert.deepEqual(await admitted(partnerBusShard(a, 2)), [a, b].sort(), "the stale write was checked and redone");
  });
});
