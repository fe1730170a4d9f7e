import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { createDummyHash, hashPassword, needsRehash, verifyPassword } from "./password.ts";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const phc = await hashPassword("correct horse battery staple");
    assert.match(phc, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await verifyPassword("correct horse battery staple", phc), true);
    assert.equal(await verifyPassword("correct horse battery stapler", phc), false);
  });

  it("salts every hash, so equal passwords give different hashes", async () => {
    assert.notEqual(await hashPassword("same password"), await hashPassword("same password"));
  });

  it("treats a malformed stored hash as a mismatch instead of throwing", async () => {
    assert.equal(await verifyPassword("x", "not-a-hash"), false);
    assert.equal(await verifyPassword("x", "$argon2id$v=19$m=8,t=1,p=1$AAAA$"), false);
  });

  it("verifies hashes made with other parameters and flags them for rehashing", async () => {
    const weak = await hashPassword("old password", { memoryKiB: 1024, passes: 1, parallelism: 1 });
    assert.equal(await verifyPassword("old password", weak), true);
    assert.equal(needsRehash(weak), true);
    assert.equal(needsRehash(await hashPassword("new password")), false);
  });

  it("makes a dummy hash that no guess matches", async () => {
    const dummy = await createDummyHash();
    assert.equal(await verifyPassword("", dummy), false);
  });
});
