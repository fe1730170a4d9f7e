import { utf8Body } from "@flowstate/shared/http/utf8-body";
import type { Context } from "hono";
import type { z } from "zod";
import { invalidRequest } from "./oauth-error.ts";

const FORM = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * Reads an application/x-www-form-urlencoded body into a flat object, refusing a parameter given
 * twice (RFC 6749 section 3.1: "MUST NOT be included more than once") and empty values (treated as
 * absent, section 3.1 too), then validates it. The body limit was enforced by the app already.
 *
 * @example
 * const input = await readForm(c, TokenRequest); // OAuthProtocolError invalid_request when malformed
 */
export async function readForm<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseParameters(await formParameters(c), schema);
}

/**
 * The form's parameters (empty values dropped, duplicates refused), before validation. Bytes or
 * percent-escapes that are not UTF-8 are refused: URLSearchParams and c.req.text() would both
 * replace them with U+FFFD and carry on with an altered value.
 */
export async function formParameters(c: Context): Promise<Record<string, string>> {
  const type = c.req.header("content-type");
  if (!type || !FORM.test(type)) throw invalidRequest("the body must be application/x-www-form-urlencoded");
  const text = await utf8Body(c);
  if (text === undefined) throw invalidRequest("the body is not valid UTF-8");
  const pairs: [string, string][] = [];
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const [name, value] = eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    pairs.push([strictDecode(name), strictDecode(value)]);
  }
  return flatten(pairs);
}

/** application/x-www-form-urlencoded decoding of one name or value; decodeURIComponent throws on a malformed or non-UTF-8 escape. */
function strictDecode(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replaceAll("+", " "));
  } catch {
    throw invalidRequest("a parameter is not valid percent-encoded UTF-8");
  }
}

/** The query string's parameters, with the same rules as a form body. */
export const queryParameters = (c: Context): Record<string, string> => flatten(new URL(c.req.url).searchParams);

function flatten(params: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of params) {
    if (value === "") continue;
    if (key in out) throw invalidRequest(`the parameter ${key} is given more than once`);
    out[key] = value;
  }
  return out;
}

/** Validates parameters; the first issue becomes the description (no value is echoed). */
export function parseParameters<S extends z.ZodType>(params: Record<string, string>, schema: S): z.output<S> {
  const result = schema.safeParse({ ...params });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "the request";
  throw invalidRequest(`${where} is missing or invalid`);
}
