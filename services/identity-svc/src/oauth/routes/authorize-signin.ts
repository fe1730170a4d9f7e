import { DEVICE_COOKIE } from "@flowstate/contracts/rest/identity/auth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import { getCookie } from "hono/cookie";
import type { IdentityApp } from "../../http/env.ts";
import { asPage, htmlResponse, redirectTarget, requireSameOrigin } from "../http/browser.ts";
import { formParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { consentPage } from "../pages/consent-page.ts";
import { signInPage } from "../pages/signin-page.ts";
import { signInInteraction } from "../verbs/sign-in-interaction.ts";

/**
 * The device cookie (OWASP device cookies, verbs/sign-in-device.ts): HttpOnly (no script reads
 * it), Secure with the `__Host-` prefix (no Domain, Path=/, https only; browsers count
 * http://localhost as secure), SameSite=Strict (the form posts from this origin to itself).
 */
const deviceCookie = (token: string, maxAgeMs: number) =>
  `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; Secure; HttpOnly; SameSite=Strict`;

/** POST /oauth/authorize/signin: the consent page after a good password, the sign-in page again otherwise. */
export function registerOAuthSignIn(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.authorize.signin"), (c) =>
    asPage(c, async () => {
      requireSameOrigin(c);
      const ctx = c.get("ctx");
      const form = await formParameters(c);
      const outcome = await signInInteraction({ ctx, form, deviceToken: getCookie(c, DEVICE_COOKIE) });
      if (outcome.kind === "retry") return htmlResponse(signInPage(outcome), 401);
      // The consent form's answer redirects to the client, and form-action governs that redirect too.
      const res = htmlResponse(consentPage(outcome), 200, [redirectTarget(outcome.request.redirect_uri)]);
      res.headers.append("set-cookie", deviceCookie(outcome.deviceToken, ctx.deps.signInThrottle.deviceTtlMs));
      return res;
    }),
  );
}
