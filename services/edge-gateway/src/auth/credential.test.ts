import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { credentialOf } from "./credential.ts";

const apiKey = `fs_${"a".repeat(20)}_${"b".repeat(43)}`;

describe("credentialOf", () => {
  it("classifies an absent header as no credential", () => {
    assert.deepEqual(credentialOf(undefined), { kind: "none" });
    assert.deepEqual(credentialOf(""), { kind: "none" });
  });

  it("tells access tokens from API keys by their shape, whatever the scheme's case", () => {
    assert.deepEqual(credentialOf("Bearer aaa.bbb.ccc"), { kind: "access_token", token: "aaa.bbb.ccc" });
    assert.deepEqual(credentialOf("bearer aaa.bbb.ccc"), { kind: "access_token", token: "aaa.bbb.ccc" });
    assert.deepEqual(credentialOf(`Bearer ${apiKey}`), { kind: "api_key", key: apiKey });
  });

  it("calls everything else malformed rather than anonymous", () => {
    for (const header of [
      "Basic dXNlcjpwdw==",
      "Bearer",
      "Bearer ",
      "Bearer a.b",
      "Bearer a.b.c.d",
      "Bearer .b.c",
      "Bearer a..c",
      "Token aaa.bbb.ccc",
      `Bearer ${"x".repeat(5000)}.a.b`,
      "Bearer fs_short_x",
    ]) {
      assert.deepEqual(credentialOf(header), { kind: "malformed" }, header);
    }
  });
});
