import { PRINCIPALS } from "@flowstate/shared/marketplace/principals";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RouteAnswer } from "./call-route.ts";

/**
 * Problem extensions our services set from a closed list of values (which principal the seller's
 * role refused, the AWS error name such as AccessDenied, the step that failed) or write from their
 * own settings (connect's `hint`: the principal ARNs and external-ID condition the trust policy
 * needs), useful to a model deciding what to tell the seller. Free text from upstream never goes through.
 */
const SAFE_EXTENSIONS = ["principal", "upstream_error", "step", "hint"] as const;
const pick = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => typeof o[k] === "string").map((k) => [k, o[k]]));

/**
 * A REST answer as a tool result. Success: the JSON as `structuredContent` and as text. A problem
 * (4xx): `isError` with the stable code, its detail and field errors, all of which our services
 * write for clients (never upstream or database text). 5xx: a generic message and the request id
 * only; the cause is in the logs under that id.
 */
export function toolResult(answer: RouteAnswer, principalPrefix?: string): CallToolResult {
  if (answer.status < 300) {
    const value = answer.body ?? {};
    const structured =
      typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  }
  const problem = (answer.body ?? {}) as Record<string, unknown> & {
    code?: string;
    detail?: string;
    errors?: unknown;
    request_id?: string;
  };
  const requestId = problem.request_id ?? answer.requestId;
  const error =
    answer.status >= 500
      ? {
          code: problem.code ?? "INTERNAL_ERROR",
          message: "Flowstate could not complete this call.",
          request_id: requestId,
        }
      : {
          code: problem.code ?? "REQUEST_REFUSED",
          message: problem.detail ?? "the request was refused",
          ...(problem.errors ? { errors: problem.errors } : {}),
          ...pick(problem, SAFE_EXTENSIONS),
          ...principalRole(problem.principal, principalPrefix),
          request_id: requestId,
        };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(error) }] };
}

/**
 * The full name of the Flowstate principal a seller's role refused (`<prefix>-<stage>-mcp-execution`):
 * what the role's trust policy must list, in the words of the onboarding bundle and the IAM console.
 * Only for the principal names our services write (a closed list), never for free text.
 */
const principalRole = (principal: unknown, prefix: string | undefined) =>
  prefix && typeof principal === "string" && (PRINCIPALS as readonly string[]).includes(principal)
    ? { principal_role: `${prefix}-${principal}` }
    : {};

/** A refusal decided here, before any REST call (wrong confirmation, no tenant in scope). */
export const refusal = (code: string, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify({ code, message }) }],
});
