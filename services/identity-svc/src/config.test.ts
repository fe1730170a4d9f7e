import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { IdentityConfig } from "./config.ts";
import { DEFAULT_ARGON2 } from "./crypto/password.ts";

const env = { DATABASE_URL: "postgres://localhost/flowstate", JWT_ISSUER: "https://flowstate.test" };

describe("identity-svc's password hashing cost (ARGON2_PARAMS)", () => {
  it("is OWASP's when unset, and takes a higher one", () => {
    assert.deepEqual(IdentityConfig.parse(env).ARGON2_PARAMS, DEFAULT_ARGON2);
    assert.deepEqual(IdentityConfig.parse({ ...env, ARGON2_PARAMS: "m=65536,t=3,p=1" }).ARGON2_PARAMS, {
      memoryKiB: 65_536,
      passes: 3,
      parallelism: 1,
    });
  });

  it("refuses a cost below OWASP's table unless NODE_ENV=test, and a malformed value always", () => {
    for (const weak of ["m=512,t=1,p=1", "m=19456,t=1,p=1", "m=6144,t=8,p=1"]) {
      const refused = IdentityConfig.safeParse({ ...env, ARGON2_PARAMS: weak, NODE_ENV: "production" });
      assert.equal(refused.success, false, weak);
      assert.deepEqual(refused.error?.issues[0]?.path, ["ARGON2_PARAMS"]);
      assert.equal(IdentityConfig.safeParse({ ...env, ARGON2_PARAMS: weak, NODE_ENV: "test" }).success, true, weak);
    }
    for (const malformed of ["19456,2,1", "m=4,t=1,p=1", "m=19456,t=0,p=1", "t=2,m=19456,p=1"]) {
      assert.equal(
        IdentityConfig.safeParse({ ...env, ARGON2_PARAMS: malformed, NODE_ENV: "test" }).success,
        false,
        malformed,
      );
    }
  });
});
