import assert from "node:assert/strict";
import { newId } from "@flowstate/shared/ids/new-id";
import { describe, it } from "vitest";
import { keyIdOf, newApiKeySecret, prefixOf } from "./api-key-secret.ts";

describe("API key secrets", () => {
  it("name their key and start with the visible prefix", () => {
    for (let i = 0; i < 50; i++) {
      const keyId = newId("key");
      const { secret, prefix } = newApiKeySecret(keyId);
      assert.equal(keyIdOf(secret), keyId);
      assert.ok(secret.startsWith(`${prefix}_`));
      assert.equal(prefixOf(keyId), prefix);
    }
  });

  it("refuse strings that are not shaped like a key", () => {
    for (const s of ["", "fs_", "fs_abc_def", "Bearer fs_x", `fs_${"a".repeat(22)}_${"b".repeat(42)}`, "rt_abc"]) {
      assert.equal(keyIdOf(s), null, s);
    }
  });
});
