import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { renderError } from "../pages/error-page.ts";
import { CSRF_FIELD } from "../pages/layout.ts";
import { tokensEqual } from "../session/seal.ts";
import { ANONYMOUS_COOKIE, setCookie } from "./cookies.ts";
import type { ConsoleEnv } from "./env.ts";

/**
 * CSRF, two lines (OWASP): the post must come from the console's own origin (`Origin`, else
 * `Sec-Fetch-Site: same-origin`), and carry the page's token, an HMAC of the session id (signed
 * in) or of the anonymous cookie (sign-up), so a token stolen from one browser fits no other. The
 * SameSite=Lax session cookie is a third line, not relied upon. A refusal is a 403 page that
 * changes nothing.
 */
export const requireCsrf = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  if (c.req.method !== "POST") return next();
  const deps = c.get("deps");
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  const sameOrigin =
    origin === deps.publicOrigin || ((origin === undefined || origin === "null") && site === "same-origin");
  const form = await c.req.parseBody();
  const given = typeof form[CSRF_FIELD] === "string" ? form[CSRF_FIELD] : "";
  const expected = c.get("csrf");
  if (!sameOrigin || !expected || !tokensEqual(given, expected))
    return renderError(
      c,
      403,
      "This form cannot be sent",
      "It expired or was not sent from this Flowstate page. Go back, reload the page and try again.",
    );
  return next();
};

/** Gives an anonymous page (sign-up) its CSRF token, setting the browser's anonymous secret when it has none. */
export const anonymousCsrf = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  const deps = c.get("deps");
  let secret = getCookie(c, ANONYMOUS_COOKIE);
  const fresh = !secret || !/^[A-Za-z0-9_-]{43}$/.test(secret);
  if (fresh) secret = randomBytes(32).toString("base64url");
  c.set("csrf", deps.sealer.mac("csrf-anonymous", secret!));
  await next();
  if (fresh)
    c.res.headers.append(
      "set-cookie",
      setCookie(ANONYMOUS_COOKIE, secret!, { maxAgeSeconds: 3600, sameSite: "Strict" }),
    );
};
