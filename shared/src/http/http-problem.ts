import type { ValidationIssue } from "@flowstate/contracts/errors/problem";

/**
 * Protocol-level failures that are not domain outcomes (405, 415, malformed JSON, validation of
 * the request's shape). Verbs throw DomainError; only the HTTP layer throws these, so the error
 * kinds stay free of HTTP-only statuses.
 */
export class HttpProblem extends Error {
  override name = "HttpProblem";
  readonly status: number;
  readonly code: string;
  readonly errors: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { errors?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(detail, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}
