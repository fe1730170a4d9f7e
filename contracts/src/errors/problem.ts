import { z } from "zod";

/** One validation finding: where (a JSON path), what (a stable code) and a human sentence. */
export const ValidationIssue = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/**
 * RFC 9457 problem details, the one error body of every service and the gateway
 * (`application/problem+json`). `code` is the stable machine code clients switch on; extra members
 * (`step`, `hint`, `tenant_ids`, …) are allowed as RFC 9457 section 3.2 extensions.
 */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string().optional(),
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    request_id: z.string(),
    errors: z.array(ValidationIssue).optional(),
  })
  .catchall(z.unknown());
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
