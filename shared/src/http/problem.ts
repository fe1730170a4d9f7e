import { STATUS_CODES } from "node:http";
import type { ProblemCode } from "@flowstate/contracts/errors/codes";
import { PROBLEM_CONTENT_TYPE, type Problem, type ValidationIssue } from "@flowstate/contracts/errors/problem";

/** Members a DomainError's extensions may not overwrite: they are the contract clients switch on. */
const RESERVED = new Set(["type", "title", "status", "detail", "code", "request_id", "errors"]);

export interface ProblemInput {
  status: number;
  code: ProblemCode;
  detail?: string | undefined;
  errors?: ValidationIssue[] | undefined;
  extensions?: Record<string, unknown> | undefined;
}

/** `OWNS_ACTIVE_TENANTS` → `https://docs.flowstate.dev/problems/owns-active-tenants` (the contracts' convention). */
export const problemType = (code: ProblemCode) =>
  `https://docs.flowstate.dev/problems/${code.toLowerCase().replaceAll("_", "-")}`;

/**
 * Builds an RFC 9457 body. Extensions come first so they can never shadow a standard member.
 *
 * @example
 * problemBody({ status: 404, code: "NOT_FOUND", detail: "tenant was not found" }, "req_abc")
 * // { type: ".../not-found", title: "Not Found", status: 404, code: "NOT_FOUND", detail: "...", request_id: "req_abc" }
 */
export function problemBody(input: ProblemInput, requestId: string): Problem {
  const body: Record<string, unknown> = {};
  if (input.extensions) {
    for (const [key, value] of Object.entries(input.extensions)) if (!RESERVED.has(key)) body[key] = value;
  }
  body.type = problemType(input.code);
  body.title = STATUS_CODES[input.status] ?? "Error";
  body.status = input.status;
  if (input.detail !== undefined) body.detail = input.detail;
  body.code = input.code;
  body.request_id = requestId;
  if (input.errors) body.errors = input.errors;
  return body as Problem;
}

/** A `Response` carrying a problem, with the right media type and any extra headers (Retry-After, Allow). */
export function problemResponse(input: ProblemInput, requestId: string, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(problemBody(input, requestId)), {
    status: input.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "x-request-id": requestId, ...headers },
  });
}
