import type { Context } from "hono";
import type { z } from "zod";
import { HttpProblem } from "./http-problem.ts";
import { zodIssues } from "./zod-issues.ts";

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function validated<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new HttpProblem(400, "VALIDATION_FAILED", `the ${what} is invalid`, { errors: zodIssues(result.error) });
}

/**
 * Reads and validates a JSON body. 415 UNSUPPORTED_MEDIA_TYPE unless the content type is JSON,
 * 400 MALFORMED_JSON when it does not parse (or is empty), 400 VALIDATION_FAILED with `errors[]`
 * when it does not match the schema. The body limit has already been enforced by the app.
 *
 * @example
 * const input = await readJson(c, CreateTenantRequest);
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type");
  if (!type || !JSON_MEDIA.test(type)) {
    throw new HttpProblem(415, "UNSUPPORTED_MEDIA_TYPE", "the request body must be application/json");
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the body; never echo it.
    throw new HttpProblem(
      400,
      "MALFORMED_JSON",
      text.trim() ? "the request body is not valid JSON" : "the request body is empty",
    );
  }
  return validated(schema, value, "request body");
}

/**
 * Validates path parameters (`/tenants/:id` → `{ id }`).
 *
 * @example
 * const { id } = parseParams(c, z.object({ id: TenantId }));
 */
export function parseParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return validated(schema, c.req.param(), "path");
}

/**
 * Validates the query string. A key given once arrives as a string, a repeated key as an array of
 * strings (use `z.coerce` for numbers).
 *
 * @example
 * const { limit, cursor } = parseQuery(c, z.object({ limit: z.coerce.number().int().max(100).default(20), cursor: z.string().optional() }));
 */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const all = c.req.queries();
  const value: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(all)) value[key] = values.length === 1 ? values[0]! : values;
  return validated(schema, value, "query string");
}
