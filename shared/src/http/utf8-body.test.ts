import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { illFormedPaths } from "./utf8-body.ts";

describe("illFormedPaths", () => {
  it("names every string and member name that is not well-formed, in document order", () => {
    const value = JSON.parse('{"a":["ok","\\ud800"],"b":{"\\udc00k":"x","c":"\\ud83d\\ude00"},"d":"\\udfff"}');
    assert.deepEqual(illFormedPaths(value), ["a.1", "b.\ufffdk", "d"]);
    assert.deepEqual(illFormedPaths({ fine: ["é", "😀", 1, null, true] }), []);
  });

  it("walks a body nested half a million levels deep without overflowing the stack", () => {
    const depth = 500_000;
    const deep = JSON.parse(`${"[".repeat(depth)}"\\ud800"${"]".repeat(depth)}`);
    const [path] = illFormedPaths(deep);
    assert.equal(path, Array.from({ length: depth }, () => "0").join("."));
  });
});
