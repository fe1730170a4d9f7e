import type { ProblemCode } from "@flowstate/contracts/errors/codes";
import { problemBody } from "@flowstate/shared/http/problem";
import type { Context } from "hono";

/**
 * An OAuth protocol refusal (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 8707 section 2):
 * `error` is the registered code clients switch on (the MCP SDK re-authorizes on `invalid_grant`).
 * Thrown by the OAuth verbs; rendered only by `oauthErrorResponse`.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "invalid_client"
  // RFC 6749 section 4.1.2.1's "temporarily overloaded", used by registration's per-address limit (429).
  | "temporarily_unavailable";

export class OAuthProtocolError extends Error {
  override name = "OAuthProtocolError";
  readonly error: OAuthErrorCode;
  readonly status: 400 | 401 | 429;
  /** Seconds, sent as Retry-After (429 only). */
  readonly retryAfter: number | undefined;
  constructor(error: OAuthErrorCode, description: string, status: 400 | 401 | 429 = 400, retryAfter?: number) {
    super(description);
    this.error = error;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export const invalidRequest = (d: string) => new OAuthProtocolError("invalid_request", d);
export const invalidGrant = (d: string) => new OAuthProtocolError("invalid_grant", d);
export const invalidClient = (d: string) => new OAuthProtocolError("invalid_client", d, 401);

/**
 * The answer of the token, registration and revocation endpoints for an OAuth error: the RFC's
 * `{error, error_description}` that OAuth clients parse, with the problem members (`code`,
 * `request_id`, `status`, …) beside them, so support and logs see the house shape too.
 */
export function oauthErrorResponse(c: Context, err: OAuthProtocolError): Response {
  const problem = problemBody(
    { status: err.status, code: `OAUTH_${err.error.toUpperCase()}` as ProblemCode, detail: err.message },
    c.get("requestId") ?? "req_unknown",
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "cache-control": "no-store",
    "access-control-allow-origin": "*",
  };
  // RFC 6749 section 5.2: invalid_client answers 401 with a challenge for the scheme tried (none here).
  if (err.status === 401) headers["www-authenticate"] = 'Bearer error="invalid_client"';
  if (err.retryAfter !== undefined) headers["retry-after"] = String(err.retryAfter);
  return new Response(JSON.stringify({ error: err.error, error_description: err.message, ...problem }), {
    status: err.status,
    headers,
  });
}
