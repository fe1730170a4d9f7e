import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceApp } from "@flowstate/shared/http/app";
import type { Context } from "hono";

/** The console's cookies (`__Host-flowstate-console…`): the only ones relayed to it, and only to it. */
const CONSOLE_COOKIE = /^__Host-flowstate-console(?:-[a-z]+)?$/;

/** What a browser's request may tell the console; credentials never ride along (no Authorization). */
const REQUEST_HEADERS = [
  "accept",
  "accept-language",
  "content-type",
  "origin",
  "referer",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "user-agent",
];
/** Hop-by-hop and framing headers of the console's answer that the relay recomputes. */
const NOT_RELAYED = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);

/**
 * The console's cookies from a Cookie header, every other cookie of the origin dropped.
 *
 * @example
 * consoleCookies("a=1; __Host-flowstate-console=abc") // "__Host-flowstate-console=abc"
 */
export function consoleCookies(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  const kept = cookie
    .split(";")
    .map((part) => part.trim())
    .filter((part) => CONSOLE_COOKIE.test(part.slice(0, part.indexOf("="))));
  return kept.length ? kept.join("; ") : undefined;
}

/**
 * Serves the seller console at `/app` on the gateway's origin (ADR 0015): the request goes to
 * web-console with only its own cookies and no credential header, the answer comes back as the
 * console wrote it (its CSP, cookies and redirects) plus the gateway's security headers. The
 * console is a client of the public API like any other: its calls come back through the
 * gateway's registry routes with the user's bearer token, so nothing here grants it anything.
 * A page is small and rare next to API calls, so this takes Hono's path, not the direct one.
 */
export function mountConsoleRelay(app: ServiceApp, consoleUrl: string, timeoutMs: number): void {
  const origin = new URL(consoleUrl).origin;
  const relay = async (c: Context) => {
    const url = new URL(c.req.url);
    const headers = new Headers();
    for (const name of REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const cookie = consoleCookies(c.req.header("cookie"));
    if (cookie) headers.set("cookie", cookie);
    headers.set("x-request-id", c.get("requestId"));
    const body = c.req.method === "GET" || c.req.method === "HEAD" ? undefined : await c.req.arrayBuffer();
    let answer: Response;
    try {
      answer = await fetch(`${origin}${url.pathname}${url.search}`, {
        method: c.req.method,
        headers,
        body: body ?? null,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new DomainError("unavailable", "UPSTREAM_UNAVAILABLE", "the console is not answering; try again shortly", {
        cause: err,
      });
    }
    const out = new Headers();
    for (const [name, value] of answer.headers)
      if (!NOT_RELAYED.has(name) && name !== "set-cookie") out.set(name, value);
    for (const value of answer.headers.getSetCookie()) out.append("set-cookie", value);
    return new Response(answer.body, { status: answer.status, headers: out });
  };
  app.all("/app", relay);
  app.all("/app/*", relay);
}
