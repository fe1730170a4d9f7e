import type { ProblemCode } from "@flowstate/contracts/errors/codes";
import { PRINCIPALS } from "@flowstate/shared/marketplace/principals";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RouteAnswer } from "./call-route.ts";

/**
 * Problem members that are HTTP's framing of the code (`type`, `title`, `status`) or mapped under
 * another name (`detail` → `message`); every other member of a 4xx problem goes into the tool
 * error as REST sends it: `errors[]` and the extensions (`tenant_ids`, `feature`, `required_role`,
 * `job_id`, `step`, `hint`, `diagnosis`, …). Extensions never carry upstream or database text
 * (shared/src/errors/domain-error.ts), which is why REST may send them, and so may this.
 */
const FRAMING = new Set(["type", "title", "status", "detail", "code", "request_id", "message"]);

/**
 * A REST answer as a tool result. Success: the JSON as `structuredContent` and as text. A problem
 * (4xx): `isError` with the stable code, its detail as `message`, and every other member REST's
 * problem has (field errors, extensions), all of which our services write for clients (never
 * upstream or database text). 5xx: the code, a generic message and the request id only, as REST's
 * 5xx says nothing more either; the cause is in the logs under that id.
 */
export function toolResult(answer: RouteAnswer, principalPrefix?: string): CallToolResult {
  if (answer.status < 300) {
    const value = answer.body ?? {};
    const structured =
      typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  }
  const body = answer.body;
  const problem = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  > & { code?: string; detail?: string; request_id?: string };
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
          ...Object.fromEntries(Object.entries(problem).filter(([key]) => !FRAMING.has(key))),
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

/** A refusal decided here, before any REST call (authorization, arguments, confirmation), with REST's members (`errors`). */
export const refusal = (code: ProblemCode, message: string, members: Record<string, unknown> = {}): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify({ code, message, ...members }) }],
});
