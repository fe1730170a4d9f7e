import type { Context } from "hono";
import type { IdentityEnv } from "../../http/env.ts";
import { errorPage, PageError } from "../pages/error-page.ts";
import { pageHeaders } from "../pages/layout.ts";
import { OAuthProtocolError } from "./oauth-error.ts";

type Ctx = Context<IdentityEnv>;

/** A rendered page with the authorization pages' security headers (layout.ts). */
export const htmlResponse = (html: string, status: number, formTargets: readonly string[] = []) =>
  new Response(html, { status, headers: pageHeaders(formTargets) });

/**
 * CSRF, first line: a form post must come from our own page. Browsers send `Origin` on every
 * cross-site (and same-origin) form POST; it must be the issuer's origin, which is the gateway's
 * public origin the page was served from. Without it (or `null`), `Sec-Fetch-Site` must say
 * same-origin (browsers always send it); a client sending neither is no browser and carries no
 * ambient authority. The second line is the per-interaction
 * CSRF token (interactions.ts); and no cookie carries authority here: each authorization asks for
 * the password, so a forged post has nothing to ride on.
 */
export function requireSameOrigin(c: Ctx): void {
  const expected = new URL(c.get("ctx").deps.oauth.issuer).origin;
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  // `Origin: null` is what Chromium sends under a strict referrer policy; then Sec-Fetch-Site decides.
  const ok =
    origin === expected ||
    ((origin === undefined || origin === "null") &&
      (site === "same-origin" || (site === undefined && origin === undefined)));
  if (!ok)
    throw new PageError(
      403,
      "Request refused",
      "This form can only be sent from the Flowstate sign-in page.",
      "CROSS_ORIGIN_FORM",
    );
}

/** Runs a page handler; a PageError (or a malformed request) becomes the error page, never a redirect. */
export async function asPage(c: Ctx, handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (err) {
    const page =
      err instanceof OAuthProtocolError ? new PageError(400, "Invalid request", err.message, "INVALID_REQUEST") : err;
    if (!(page instanceof PageError)) throw err;
    return htmlResponse(errorPage(page, c.get("requestId")), page.status);
  }
}

/** The origin a consent form may be redirected to (CSP form-action), or the scheme of a native app's URI. */
export function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}
