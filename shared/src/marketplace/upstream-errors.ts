import { DomainError } from "../errors/domain-error.ts";

/** What went wrong with a call into a seller's account, as far as a caller needs to know. */
export type UpstreamKind = "denied" | "throttled" | "unavailable" | "expired" | "not_found" | "invalid" | "other";

export interface UpstreamFailure {
  kind: UpstreamKind;
  /** The AWS error name (`AccessDenied`, `ThrottlingException`, …): safe to show, unlike the message. */
  name: string;
  status: number | undefined;
}

const THROTTLING = new Set([
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "SlowDown",
]);
const DENIED = new Set(["AccessDenied", "AccessDeniedException"]);
const EXPIRED = new Set(["ExpiredToken", "ExpiredTokenException", "RequestExpired"]);
const NETWORK = /^(ECONN|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|UND_ERR)/;

/**
 * Classifies an AWS SDK error from STS, Catalog or Agreement. Network failures (no HTTP status)
 * and 5xx count as an outage; an error that is not the SDK's (a bug) is `other`, never an outage. Only the error's name is kept: AWS messages carry ARNs of the
 * caller's session and must not reach a client or a model.
 *
 * @example
 * classifyUpstream(err); // { kind: "denied", name: "AccessDenied", status: 403 }
 */
export function classifyUpstream(err: unknown): UpstreamFailure {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number }; $fault?: string };
  const name = typeof e?.name === "string" && /^[A-Za-z.]{1,100}$/.test(e.name) ? e.name : "UnknownError";
  const status = e?.$metadata?.httpStatusCode;
  if (THROTTLING.has(name) || status === 429) return { kind: "throttled", name, status };
  if (DENIED.has(name)) return { kind: "denied", name, status };
  if (EXPIRED.has(name)) return { kind: "expired", name, status };
  if (name === "ResourceNotFoundException") return { kind: "not_found", name, status };
  if (name === "ValidationException" || name === "ValidationError") return { kind: "invalid", name, status };
  if ((status !== undefined && status >= 500) || e?.$fault === "server") return { kind: "unavailable", name, status };
  // No answer at all: the SDK's own timeout, or the socket (its errors carry a `code`, and the SDK
  // adds `$metadata` to what it throws). Anything else without a status is not AWS's doing: a bug.
  const code = (err as { code?: unknown })?.code;
  if (
    status === undefined &&
    (e?.$metadata || name === "TimeoutError" || (typeof code === "string" && NETWORK.test(code)))
  )
    return { kind: "unavailable", name, status };
  return { kind: "other", name, status };
}

/** Whether `err` came from an AWS SDK call (the SDK attaches `$metadata`), not from our own code. */
export const isAwsError = (err: unknown): boolean =>
  typeof err === "object" && err !== null && "$metadata" in err && typeof (err as { name?: unknown }).name === "string";

/** Seconds a client should wait after the seller's account throttled us or failed. */
export const UPSTREAM_RETRY_AFTER_SECONDS = 2;

/**
 * 503 UPSTREAM_UNAVAILABLE with Retry-After, for throttling and outages of the seller's account
 * that outlasted the SDK's own retries. `upstream_error` names the AWS error, never its text.
 */
export function upstreamUnavailable(failure: UpstreamFailure, cause?: unknown): DomainError {
  return new DomainError(
    "unavailable",
    "UPSTREAM_UNAVAILABLE",
    failure.kind === "throttled"
      ? "AWS Marketplace is throttling calls to your seller account; retry shortly"
      : "AWS Marketplace did not answer for your seller account; retry shortly",
    { retryAfter: UPSTREAM_RETRY_AFTER_SECONDS, extensions: { upstream_error: failure.name }, cause },
  );
}
