import assert from "node:assert/strict";
import { describe, it } from "vitest";
import {
  ACCOUNTS_PER_SHARD,
  BUS_POLICY_MAX_BYTES,
  PARTNER_BUS_SHARDS,
  partnerBusNames,
  partnerBusPolicy,
  partnerBusShard,
} from "./ingest-bus.ts";

const busArn = "arn:aws:events:us-east-1:111111111111:event-bus/flowstate-prod-partner-0";
const randomAccount = (i: number) => String(100_000_000_000 + ((i * 7_919_393) % 899_999_999_999)).padStart(12, "0");

describe("partner ingest buses", () => {
  it("names one bus per shard of the stage", () => {
    assert.deepEqual(partnerBusNames({ SERVICE_PREFIX: "flowstate", STAGE: "dev" }), [
      "flowstate-dev-partner-0",
      "flowstate-dev-partner-1",
    ]);
    assert.equal(partnerBusNames({ SERVICE_PREFIX: "flowstate", STAGE: "prod" }).length, PARTNER_BUS_SHARDS.prod);
  });

  it("keeps a full shard's policy under EventBridge's 10,240-byte limit", () => {
    const accounts = Array.from({ length: ACCOUNTS_PER_SHARD }, (_, i) => randomAccount(i));
    const size = Buffer.byteLength(partnerBusPolicy(busArn, accounts));
    assert.ok(size < BUS_POLICY_MAX_BYTES, `${size} bytes`);
  });

  it("spreads 10,000 tenant accounts over the prod shards without overfilling one", () => {
    const counts = new Array<number>(PARTNER_BUS_SHARDS.prod).fill(0);
    for (let i = 0; i < 10_000; i++) counts[partnerBusShard(randomAccount(i), PARTNER_BUS_SHARDS.prod)]! += 1;
    assert.ok(Math.max(...counts) <= ACCOUNTS_PER_SHARD, `busiest shard: ${Math.max(...counts)}`);
  });

  it("assigns an account to the same shard every time", () => {
    assert.equal(partnerBusShard("222222222222", 20), partnerBusShard("222222222222", 20));
  });

  it("admits only the listed accounts and only Partner Central's source; nobody when none is listed", () => {
    const policy = JSON.parse(partnerBusPolicy(busArn, ["333333333333", "222222222222", "222222222222"]));
    const condition = policy.Statement[0].Condition.StringEquals;
    assert.deepEqual(condition["aws:PrincipalAccount"], ["222222222222", "333333333333"]);
    assert.equal(condition["events:source"], "aws.partnercentral-selling");
    const empty = JSON.parse(partnerBusPolicy(busArn, []));
    assert.deepEqual(empty.Statement[0].Condition.StringEquals["aws:PrincipalAccount"], ["111111111111"]);
  });
});
