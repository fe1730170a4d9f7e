import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { entrySize, MAX_ENTRY_BYTES } from "./publish-batch.ts";

describe("entrySize (EventBridge's rule for a PutEvents entry)", () => {
  it("counts the UTF-8 bytes of Source, DetailType, Detail and each resource, and 14 for Time only when set", () => {
    const base = { Source: "flowstate.x", DetailType: "Ä", Detail: '{"a":"€"}' };
    // 11 + 2 (Ä) + 11 ({"a":"€"}: € is 3 bytes)
    assert.equal(entrySize(base), 24);
    assert.equal(entrySize({ ...base, EventBusName: "a-very-long-bus-name" }), 24, "the bus name does not count");
    assert.equal(entrySize({ ...base, Time: new Date() }), 38);
    assert.equal(entrySize({ ...base, Resources: ["arn:x", "ü"] }), 24 + 5 + 2);
  });

  it("puts the limit at 256 KiB", () => {
    assert.equal(MAX_ENTRY_BYTES, 262_144);
  });
});
