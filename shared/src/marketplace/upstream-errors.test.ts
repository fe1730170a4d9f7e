import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { classifyUpstream, isAwsError } from "./upstream-errors.ts";

const aws = (name: string, status?: number, fault?: string) =>
  Object.assign(new Error("User: arn:aws:sts::1:assumed-role/x is not authorized"), {
    name,
    $metadata: status === undefined ? {} : { httpStatusCode: status },
    ...(fault ? { $fault: fault } : {}),
  });

describe("classifying what a seller's account answered", () => {
  it("tells throttling, refusal, expiry, outage and validation apart by AWS's error name and status", () => {
    assert.equal(classifyUpstream(aws("Throttling", 400)).kind, "throttled");
    assert.equal(classifyUpstream(aws("ThrottlingException", 429)).kind, "throttled");
    assert.equal(classifyUpstream(aws("AccessDenied", 403)).kind, "denied");
    assert.equal(classifyUpstream(aws("AccessDeniedException", 403)).kind, "denied");
    assert.equal(classifyUpstream(aws("ExpiredTokenException", 403)).kind, "expired");
    assert.equal(classifyUpstream(aws("InternalServiceException", 500, "server")).kind, "unavailable");
    assert.equal(classifyUpstream(aws("TimeoutError")).kind, "unavailable");
    assert.equal(classifyUpstream(aws("ValidationException", 422)).kind, "invalid");
  });

  it("counts a dropped connection as an outage, and a bug of ours as neither an outage nor AWS's answer", () => {
    assert.equal(classifyUpstream(Object.assign(new Error("socket"), { code: "ECONNRESET" })).kind, "unavailable");
    const bug = new TypeError("x is undefined");
    assert.equal(classifyUpstream(bug).kind, "other");
    assert.equal(isAwsError(bug), false);
    assert.equal(isAwsError(aws("AccessDenied", 403)), true);
  });

  it("keeps only the error's name: never its message, which names our sessions' ARNs", () => {
    const failure = classifyUpstream(aws("AccessDenied", 403));
    assert.doesNotMatch(JSON.stringify(failure), /arn:aws/);
    assert.equal(classifyUpstream({ name: "<script>", $metadata: {} }).name, "UnknownError");
  });
});
