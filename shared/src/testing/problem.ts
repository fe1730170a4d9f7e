import assert from "node:assert/strict";
import { PROBLEM_CONTENT_TYPE, Problem } from "@flowstate/contracts/errors/problem";

/**
 * Asserts that a response is a problem+json with the given status and code, that its body matches
 * the Problem contract and that `request_id` equals the `x-request-id` header; returns the body.
 * For route tests of every service (`app.request` or a real fetch).
 *
 * @example
 * const problem = await expectProblem(await app.request("/v1/tenants/tnt_missing0000"), 404, "NOT_FOUND");
 */
export async function expectProblem(response: Response, status: number, code: string): Promise<Problem> {
  const text = await response.text();
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status}: ${text}`);
  assert.equal(response.headers.get("content-type"), PROBLEM_CONTENT_TYPE);
  const body = Problem.parse(JSON.parse(text));
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(body.request_id, response.headers.get("x-request-id"));
  return body;
}
