import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { toolResult } from "./tool-result.ts";

const errorOf = (status: number, body: unknown) =>
  JSON.parse(
    (toolResult({ status, body, requestId: "req_header" }, "flowstate-dev").content[0] as { text: string }).text,
  );

describe("toolResult", () => {
  it("carries every member of a 4xx problem but HTTP's framing, detail as message", () => {
    const problem = {
      type: "https://docs.flowstate.dev/problems/owns-active-tenants",
      title: "Conflict",
      status: 409,
      detail: "transfer or delete the tenants you own first",
      code: "OWNS_ACTIVE_TENANTS",
      request_id: "req_problem",
      tenant_ids: ["tnt_aaaaaaaaaaaa", "tnt_bbbbbbbbbbbb"],
      errors: [{ path: "x", code: "custom", message: "m" }],
      principal: "mcp-execution",
    };
    assert.deepEqual(errorOf(409, problem), {
      code: "OWNS_ACTIVE_TENANTS",
      message: "transfer or delete the tenants you own first",
      tenant_ids: ["tnt_aaaaaaaaaaaa", "tnt_bbbbbbbbbbbb"],
      errors: [{ path: "x", code: "custom", message: "m" }],
      principal: "mcp-execution",
      principal_role: "flowstate-dev-mcp-execution",
      request_id: "req_problem",
    });
  });

  it("keeps a 5xx generic: no detail, no extension, whatever the body says", () => {
    const body = {
      status: 503,
      code: "UPSTREAM_UNAVAILABLE",
      detail: "relation x does not exist",
      upstream_error: "X",
    };
    assert.deepEqual(errorOf(503, body), {
      code: "UPSTREAM_UNAVAILABLE",
      message: "Flowstate could not complete this call.",
      request_id: "req_header",
    });
  });

  it("never lets a member overwrite the message, and survives a body that is not a problem", () => {
    assert.equal(errorOf(400, { code: "VALIDATION_FAILED", detail: "d", message: "other" }).message, "d");
    assert.deepEqual(errorOf(404, ["not", "an", "object"]), {
      code: "REQUEST_REFUSED",
      message: "the request was refused",
      request_id: "req_header",
    });
  });
});
