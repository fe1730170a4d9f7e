import type { ValidationIssue } from "@flowstate/contracts/errors/problem";
import type { z } from "zod";

/**
 * zod issues → the problem's `errors[]`. The path is dotted (`items.0.id`, "" for the whole
 * value); the code is zod's stable issue code, never its message text as a contract.
 *
 * @example
 * zodIssues(result.error) // [{ path: "role_arn", code: "invalid_format", message: "Invalid string" }]
 */
export function zodIssues(error: { issues: readonly z.core.$ZodIssue[] }): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    code: issue.code,
    message: issue.message,
  }));
}
