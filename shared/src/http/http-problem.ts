import { type ProblemCode, statusOf } from "@flowstate/contracts/errors/codes";
import type { ValidationIssue } from "@flowstate/contracts/errors/problem";

/**
 * Protocol-level failures that are not domain outcomes (405, 415, malformed JSON, validation of
 * the request's shape). Verbs throw DomainError; only the HTTP layer throws these, so the error
 * kinds stay free of HTTP-only statuses. The status is the catalog's for the code.
 */
export class HttpProblem extends Error {
  override name = "HttpProblem";
  readonly status: number;
  readonly code: ProblemCode;
  readonly errors: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ProblemCode,
    detail: string,
    options: { errors?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(detail, { cause: options.cause });
    this.status = statusOf(code);
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}
