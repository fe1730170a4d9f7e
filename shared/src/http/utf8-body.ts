import type { ValidationIssue } from "@flowstate/contracts/errors/problem";
import type { Context } from "hono";

// fatal: a malformed sequence throws instead of becoming U+FFFD. A leading BOM is dropped, as
// Response.text() drops it (RFC 8259 section 8.1 lets a parser ignore it).
const strict = new TextDecoder("utf-8", { fatal: true });

/** The refusal of a body that is not UTF-8: a body-level entry of the problem's `errors[]`. */
export const INVALID_UTF8_ISSUE: ValidationIssue = {
  path: "",
  code: "invalid_encoding",
  message: "the body is not valid UTF-8",
};

/**
 * The request body as text, or undefined when its bytes are not valid UTF-8. Hono's `c.req.text()`
 * (like `Response.text()`) replaces a malformed sequence with U+FFFD, which would then be stored
 * as if the client had sent it; JSON must be UTF-8 (RFC 8259 section 8.1), so such a body is
 * refused instead. The text is put in Hono's body cache, so a validator reading `c.req.json()`
 * afterwards parses exactly this text.
 *
 * @example
 * const text = await utf8Body(c);
 * if (text === undefined) throw new HttpProblem("MALFORMED_JSON", "the request body is not valid UTF-8", { errors: [INVALID_UTF8_ISSUE] });
 */
export async function utf8Body(c: Context): Promise<string | undefined> {
  const bytes = await c.req.arrayBuffer();
  let text: string;
  try {
    text = strict.decode(bytes);
  } catch {
    return undefined;
  }
  // Hono keeps promises in its cache (its type says values): c.req.json() calls .then on the entry.
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  return text;
}

/**
 * Paths (dotted, as in `errors[]`) of the strings and member names in a parsed JSON value that are
 * not well-formed Unicode: a lone surrogate written as a `\ud800` escape is valid JSON in valid
 * UTF-8, but no UTF-8 can store it, so PostgreSQL would be handed U+FFFD instead. At most `limit`.
 *
 * @example
 * illFormedPaths(JSON.parse('{"a":["ok","\\ud800"]}')) // ["a.1"]
 */
export function illFormedPaths(value: unknown, limit = 10): string[] {
  // Iterative, with parent links: a 1 MiB body can nest half a million levels, which would
  // overflow a recursive walk (a 500) and make per-level path copies quadratic.
  type Node = { key: string; parent: Node | undefined };
  const pathOf = (node: Node | undefined, last?: string): string => {
    const parts: string[] = last === undefined ? [] : [last];
    for (let n = node; n; n = n.parent) parts.push(n.key);
    return parts.reverse().join(".");
  };
  const found: string[] = [];
  const stack: { value: unknown; node: Node | undefined }[] = [{ value, node: undefined }];
  while (stack.length && found.length < limit) {
    const { value: v, node } = stack.pop()!;
    if (typeof v === "string") {
      if (!v.isWellFormed()) found.push(pathOf(node));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], node: { key: String(i), parent: node } });
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (!key.isWellFormed()) found.push(pathOf(node, key.toWellFormed()));
        stack.push({ value: item, node: { key, parent: node } });
      }
    }
  }
  return found.slice(0, limit);
}
