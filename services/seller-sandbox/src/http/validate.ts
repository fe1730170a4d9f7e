import type { z } from "zod";
import { ApiError } from "./api-error.ts";

/** Lower-camel path as AWS prints it in validation messages (`changeSet.1.entity.type`). */
function awsPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? String(p + 1) : String(p).replace(/^[A-Z]/, (c) => c.toLowerCase())))
    .join(".");
}

/**
 * Validates an input against its zod shape and throws AWS's validation error in the protocol's
 * form: "1 validation error detected: Value at 'maxResults' failed to satisfy constraint: ...".
 *
 * @example
 * const input = parseInput(ListEntitiesInput, json, { status: 422 });
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: { status: number; path?: PropertyKey[]; fields?: (issues: z.core.$ZodIssue[]) => Record<string, unknown> },
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const parts = issues.map((i) => {
    const path = [...(options.path ?? []), ...i.path];
    return path.length ? `Value at '${awsPath(path)}' failed to satisfy constraint: ${i.message}` : i.message;
  });
  const n = parts.length;
  throw new ApiError(
    options.status,
    "ValidationException",
    `${n} validation error${n === 1 ? "" : "s"} detected: ${parts.join("; ")}`,
    options.fields?.(issues) ?? {},
  );
}

/** The request body as JSON, or AWS's validation error for text that is not JSON. */
export function parseJsonBody(text: string, status: number, fields: Record<string, unknown> = {}): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(status, "ValidationException", "The request body is not valid JSON.", fields);
  }
}
