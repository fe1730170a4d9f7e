import type { ProblemCode } from "../errors/codes.ts";
import type { RouteShape, RouteSpec } from "./route.ts";

const AUTHENTICATION: ProblemCode[] = [
  "UNAUTHENTICATED",
  "INVALID_TOKEN",
  "TOKEN_EXPIRED",
  "SESSION_REVOKED",
  "INVALID_API_KEY",
];
/** Answered by the platform on any route: rate limits, a service that is missing or down, a bug. */
const ANY_ROUTE: ProblemCode[] = ["RATE_LIMITED", "SERVICE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE", "INTERNAL_ERROR"];

/**
 * Every problem code a route can answer: those its shape implies (a body can be malformed, a
 * tenant route can refuse a role, …) and those it declares in `problems`. The OpenAPI document
 * lists these under their statuses; `mountRoute` (in tests) fails an answer with any other code.
 * Internal routes (no `auth`) imply the refusals of a caller: not a service, not one of `callers`.
 *
 * @example
 * routeProblems(routeById("members.remove")!) // [..., "INSUFFICIENT_ROLE", "LAST_OWNER", ...]
 */
export function routeProblems(
  route: RouteShape & Partial<Pick<RouteSpec, "auth" | "apiKey" | "feature" | "idempotencyKey">>,
): ProblemCode[] {
  const codes = new Set<ProblemCode>(ANY_ROUTE);
  if (route.params || route.query || route.body) codes.add("VALIDATION_FAILED");
  // A malformed key is a 400 naming the header; a key already used for another request, a 422.
  if (route.idempotencyKey) {
    codes.add("VALIDATION_FAILED");
    codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  if (route.params) codes.add("NOT_FOUND");
  if (route.body) {
    for (const c of ["MALFORMED_JSON", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "BAD_REQUEST"] as const)
      codes.add(c);
  }
  // An internal route refuses a non-service (401) and a service not among its callers (403).
  if (route.auth === undefined) {
    codes.add("UNAUTHENTICATED");
    codes.add("FORBIDDEN");
  } else if (route.auth !== "public") {
    for (const c of AUTHENTICATION) codes.add(c);
    if (route.auth === "user" || !route.apiKey) codes.add("API_KEY_NOT_ALLOWED");
  }
  if (route.auth === "tenant") {
    codes.add("NOT_FOUND");
    codes.add("INSUFFICIENT_ROLE");
    if (route.apiKey === "write") codes.add("INSUFFICIENT_SCOPE");
    if (route.feature) codes.add("FEATURE_DISABLED");
  }
  for (const c of route.problems ?? []) codes.add(c);
  return [...codes];
}
