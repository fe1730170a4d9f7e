import type { MiddlewareHandler } from "hono";
import { HttpProblem } from "./http-problem.ts";
import { INVALID_UTF8_ISSUE, illFormedPaths, utf8Body } from "./utf8-body.ts";

/** The media types Hono's json validator parses (hono/validator: `application/json`, `application/*+json`). */
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/;

/**
 * Runs before `zValidator("json", …)` and gives the answers Hono's validator would not: 415
 * UNSUPPORTED_MEDIA_TYPE unless the body is declared JSON (Hono would validate `{}` instead), 400
 * MALFORMED_JSON when it is not UTF-8 (Hono would decode it with U+FFFD replacements, and the
 * altered text would be stored), does not parse, or is empty (Hono throws a bare 400 whose message
 * would become the detail), and 400 VALIDATION_FAILED for a string that is not well-formed Unicode
 * (a lone surrogate escape, which storage would replace). The text stays in Hono's body cache, so
 * the validator reads it without a second read of the stream. The body limit has already been
 * enforced by the app.
 */
export const jsonBody: MiddlewareHandler = async (c, next) => {
  const type = c.req.header("content-type");
  const media = (type ?? "").split(";")[0]!.trim().toLowerCase();
  if (!media || !JSON_MEDIA.test(media)) {
    throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", "the request body must be application/json");
  }
  const text = await utf8Body(c);
  if (text === undefined) {
    throw new HttpProblem("MALFORMED_JSON", "the request body is not valid UTF-8", { errors: [INVALID_UTF8_ISSUE] });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the body; never echo it.
    const detail = text.trim() ? "the request body is not valid JSON" : "the request body is empty";
    throw new HttpProblem("MALFORMED_JSON", detail);
  }
  const illFormed = illFormedPaths(parsed);
  if (illFormed.length) {
    throw new HttpProblem("VALIDATION_FAILED", "the request body is invalid", {
      errors: illFormed.map((path) => ({
        path,
        code: "invalid_format",
        message: "must be well-formed Unicode (a lone surrogate escape cannot be stored)",
      })),
    });
  }
  await next();
};
