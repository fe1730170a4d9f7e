import assert from "node:assert/strict";
import { checkConfig } from "@flowstate/shared/config/parse-config";
import { describe, it } from "vitest";
import { ConnectorConfig } from "./config.ts";

const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/flowstate", IDENTITY_URL: "http://127.0.0.1:8081" };

describe("connector-svc configuration", () => {
  it("reads CONSUME_EVENTS the one way booleans are read (booleanVar): true/false, 1/0, any case; on when unset", () => {
    const consume = (value?: string) => {
      const checked = checkConfig(ConnectorConfig, { ...env, CONSUME_EVENTS: value });
      assert.ok(checked.ok, JSON.stringify(checked));
      return checked.value.CONSUME_EVENTS;
    };
    assert.equal(consume(), true);
    assert.equal(consume("FALSE"), false);
    assert.equal(consume("0"), false);
    assert.equal(consume("1"), true);
  });

  it("refuses any other value instead of reading it as false", () => {
    const checked = checkConfig(ConnectorConfig, { ...env, CONSUME_EVENTS: "no" });
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? "" : checked.problems.join("\n"), /^CONSUME_EVENTS: /m);
  });
});
