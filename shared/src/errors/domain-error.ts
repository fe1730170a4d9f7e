import type { ProblemCode, ProblemStatus } from "@flowstate/contracts/errors/codes";

/**
 * The one error model. Verbs throw a DomainError with a stable `code` from the catalog
 * (contracts/src/errors/codes.ts) and a `kind`; they know nothing of HTTP. The HTTP layer
 * (shared/src/http) maps `kind` to a status and renders problem+json; the MCP layer maps it to a
 * tool error. `extensions` become extra problem members (e.g. `step`, `hint`, `tenant_ids`) and
 * must never carry upstream or database text.
 */
export const STATUS_BY_KIND = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof STATUS_BY_KIND;

/** The kind whose status the catalog gives `code`: a code and a kind that disagree do not compile. */
export type KindOf<C extends ProblemCode> = {
  [K in ErrorKind]: (typeof STATUS_BY_KIND)[K] extends ProblemStatus<C> ? K : never;
}[ErrorKind];

export class DomainError<C extends ProblemCode = ProblemCode> extends Error {
  override name = "DomainError";
  readonly kind: ErrorKind;
  readonly code: C;
  readonly extensions: Record<string, unknown>;
  /** Seconds a client should wait before retrying (`Retry-After`), for rate_limited and unavailable. */
  readonly retryAfter: number | undefined;

  constructor(
    kind: KindOf<NoInfer<C>>,
    code: C,
    detail: string,
    options: { extensions?: Record<string, unknown>; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(detail, { cause: options.cause });
    this.kind = kind;
    this.code = code;
    this.extensions = options.extensions ?? {};
    this.retryAfter = options.retryAfter;
  }
}

/** Same answer for "missing" and "not yours": a foreign object must look exactly like a missing one. */
export const notFound = (what: string) => new DomainError("not_found", "NOT_FOUND", `${what} was not found`);
