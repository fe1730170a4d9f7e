import assert from "node:assert/strict";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import { describe, it } from "vitest";
import { mapUpstreamError } from "./upstream-errors.ts";

const aws = (name: string, status: number | undefined, message = "User: arn:aws:sts::111122223333:assumed-role/x") =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

const call = { tenantId: "tnt_abcdefghij", principal: "backend" } as const;
const mapped = (err: unknown) => mapUpstreamError(err, "offer", call) as DomainError;

describe("AWS failures as problems", () => {
  it("gives throttling, 5xx and no answer 503 UPSTREAM_UNAVAILABLE with Retry-After", () => {
    for (const err of [
      aws("ThrottlingException", 429),
      aws("InternalServiceException", 500),
      aws("TimeoutError", undefined),
    ]) {
      const e = mapped(err);
      assert.equal(e.kind, "unavailable", err.name);
      assert.equal(e.code, "UPSTREAM_UNAVAILABLE");
      assert.ok((e.retryAfter ?? 0) > 0);
    }
  });

  it("keeps AWS's error name and nothing of its message", () => {
    const cases: [string, number, string, string][] = [
      ["ValidationException", 422, "invalid", "MARKETPLACE_VALIDATION_FAILED"],
      ["ResourceInUseException", 423, "conflict", "OFFER_CHANGE_IN_PROGRESS"],
      ["ConflictException", 409, "conflict", "MARKETPLACE_CONFLICT"],
      ["ServiceQuotaExceededException", 402, "unprocessable", "MARKETPLACE_REFUSED"],
      ["AccessDeniedException", 403, "conflict", "CONNECTOR_ACCESS_DENIED"],
      ["ResourceNotFoundException", 404, "not_found", "NOT_FOUND"],
    ];
    for (const [name, status, kind, code] of cases) {
      const e = mapped(aws(name, status));
      assert.equal(e.kind, kind, name);
      assert.equal(e.code, code, name);
      assert.doesNotMatch(JSON.stringify({ detail: e.message, ...e.extensions }), /arn:aws|111122223333/);
      if (code !== "NOT_FOUND") assert.equal(e.extensions["upstream_error"], name);
    }
  });

  it("answers a refused AssumeRole as the connector's access problem, naming the principal", () => {
    const failed = new AssumeRoleFailed(
      "mcp-execution",
      { kind: "denied", name: "AccessDenied", status: 403 },
      aws("AccessDenied", 403),
    );
    const e = mapped(failed);
    assert.equal(e.code, "CONNECTOR_ACCESS_DENIED");
    assert.equal(e.extensions["principal"], "mcp-execution");
    assert.equal(e.extensions["health"], "/v1/tenants/tnt_abcdefghij/integrations/marketplace/health");
  });

  it("answers a refused call with the principal it ran as and the health endpoint, as connector-svc does", () => {
    const e = mapped(aws("AccessDeniedException", 403));
    assert.equal(e.code, "CONNECTOR_ACCESS_DENIED");
    assert.deepEqual(e.extensions, {
      upstream_error: "AccessDeniedException",
      principal: "backend",
      health: "/v1/tenants/tnt_abcdefghij/integrations/marketplace/health",
    });
  });

  it("passes DomainErrors through", () => {
    const own = new DomainError("conflict", "CONNECTOR_NOT_CONNECTED", "not connected");
    assert.equal(mapUpstreamError(own, "offer", call), own);
  });
});
