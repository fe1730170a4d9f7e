import type { ProblemCode } from "@flowstate/contracts/errors/codes";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { isDatabaseUnavailable } from "../db/open-database.ts";
import { DomainError, STATUS_BY_KIND } from "../errors/domain-error.ts";
import { HttpProblem } from "./http-problem.ts";
import { type ProblemInput, problemResponse } from "./problem.ts";
import type { ServiceEnv } from "./types.ts";
import { zodIssues } from "./zod-issues.ts";

/** Stable codes for statuses that Hono itself (or a third-party middleware) raises as HTTPException. */
const CODE_BY_STATUS: Record<number, ProblemCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
};

interface Mapped {
  problem: ProblemInput;
  headers?: Record<string, string> | undefined;
}

/**
 * Turns anything thrown by a route into a problem. Only DomainError and HttpProblem details reach
 * the client; everything else becomes a bare INTERNAL_ERROR, because unknown errors carry
 * database, SDK or upstream text that must never be echoed to a client.
 */
export function mapError(err: unknown): Mapped {
  if (err instanceof DomainError) {
    const status: number = STATUS_BY_KIND[err.kind] ?? 500;
    const retry = err.kind === "rate_limited" || err.kind === "unavailable";
    return {
      problem: { status, code: err.code, detail: err.message, extensions: err.extensions },
      headers: retry ? { "retry-after": String(Math.max(0, Math.ceil(err.retryAfter ?? 1))) } : undefined,
    };
  }
  if (err instanceof HttpProblem) {
    return {
      problem: { status: err.status, code: err.code, detail: err.message, errors: err.errors },
      headers: err.headers,
    };
  }
  if (err instanceof z.ZodError) {
    return {
      problem: { status: 400, code: "VALIDATION_FAILED", detail: "the request is invalid", errors: zodIssues(err) },
    };
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code = CODE_BY_STATUS[err.status] ?? "BAD_REQUEST";
    return { problem: { status: err.status, code, detail: err.message || undefined } };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      problem: {
        status: 503,
        code: "UPSTREAM_UNAVAILABLE",
        detail: "the service could not reach its database; retry shortly",
      },
      headers: { "retry-after": "1" },
    };
  }
  return { problem: { status: 500, code: "INTERNAL_ERROR", detail: "an internal error occurred" } };
}

/**
 * The app's one `onError`. Logging happens once, in the request log line (which sees `c.error`),
 * so a 5xx is written with its cause and a 4xx is not an error-level event.
 */
export function onError(err: unknown, c: Context<ServiceEnv>): Response {
  const { problem, headers } = mapError(err);
  return problemResponse(problem, c.get("requestId") ?? "req_unknown", headers);
}
