/**
 * The one error model. Verbs throw a DomainError with a stable `code` and a `kind`; they know
 * nothing of HTTP. The HTTP layer (shared/src/http) maps `kind` to a status and renders
 * problem+json; the MCP layer maps it to a tool error. `extensions` become extra problem members
 * (e.g. `step`, `hint`, `tenant_ids`) and must never carry upstream or database text.
 */
export type ErrorKind =
  | "invalid" // 400
  | "unauthenticated" // 401
  | "forbidden" // 403
  | "not_found" // 404
  | "conflict" // 409
  | "gone" // 410
  | "too_large" // 413
  | "unprocessable" // 422
  | "rate_limited" // 429
  | "internal" // 500
  | "unavailable"; // 503

export class DomainError extends Error {
  override name = "DomainError";
  readonly kind: ErrorKind;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  /** Seconds a client should wait before retrying (`Retry-After`), for rate_limited and unavailable. */
  readonly retryAfter: number | undefined;

  constructor(
    kind: ErrorKind,
    code: string,
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
