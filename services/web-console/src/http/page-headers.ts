import type { MiddlewareHandler } from "hono";

/**
 * The console's answers' headers. CSP: nothing inline, no script at all (every page works without
 * JavaScript), the one stylesheet from this origin, forms post to this origin only, never framed
 * (`frame-ancestors 'none'`, and X-Frame-Options for old browsers), no base-uri tricks. Pages carry
 * a user's data: never stored; the referrer never leaves the origin (a page URL names tenants).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
});

export const pageHeaders = (): MiddlewareHandler => async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(PAGE_HEADERS))
    if (!c.res.headers.has(name)) c.res.headers.set(name, value);
};
