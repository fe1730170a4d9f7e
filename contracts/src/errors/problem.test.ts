import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { Problem } from "./problem.ts";

const valid = {
  type: "https://docs.flowstate.dev/problems/owns-active-tenants",
  title: "Conflict",
  status: 409,
  detail: "Transfer ownership or soft-delete the tenant first",
  code: "OWNS_ACTIVE_TENANTS",
  request_id: "req_abc123",
};

describe("Problem", () => {
  it("accepts an RFC 9457 problem with the Flowstate members", () => {
    assert.equal(Problem.safeParse(valid).success, true);
  });

  it("keeps extension members such as tenant_ids and hint", () => {
    const parsed = Problem.parse({ ...valid, tenant_ids: ["tnt_0123456789ab"], hint: "check the trust policy" });
    assert.deepEqual(parsed.tenant_ids, ["tnt_0123456789ab"]);
  });

  it("accepts validation errors as path, code and message", () => {
    const body = {
      ...valid,
      status: 400,
      code: "VALIDATION_FAILED",
      errors: [{ path: "/role_arn", code: "invalid_format", message: "not a role ARN" }],
    };
    assert.equal(Problem.safeParse(body).success, true);
  });

  const rejections: [string, Record<string, unknown>][] = [
    ["a 2xx status", { status: 200 }],
    ["a status above 599", { status: 600 }],
    ["a lower-case code", { code: "owns_active_tenants" }],
    ["a missing request_id", { request_id: undefined }],
    ["validation errors without a path", { errors: [{ code: "x", message: "y" }] }],
  ];
  for (const [what, patch] of rejections) {
    it(`rejects ${what}`, () => {
      assert.equal(Problem.safeParse({ ...valid, ...patch }).success, false);
    });
  }
});
