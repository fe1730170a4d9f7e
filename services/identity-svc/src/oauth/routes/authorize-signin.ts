import { DEVICE_COOKIE } from "@flowstate/contracts/rest/identity/auth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import { getCookie } from "hono/cookie";
import type { IdentityApp } from "../../http/env.ts";
import { isFirstParty } from "../clients/first-party.ts";
import { asPage, htmlResponse, redirectTarget, requireSameOrigin } from "../http/browser.ts";
import { formParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { consentPage } from "../pages/consent-page.ts";
import { signInPage } from "../pages/signin-page.ts";
import { consent } from "../verbs/consent.ts";
import { signInInteraction } from "../verbs/sign-in-interaction.ts";

/**
 * The device cookie (OWASP device cookies, verbs/sign-in-device.ts): HttpOnly (no script reads
 * it), Secure with the `__Host-` prefix (no Domain, Path=/, https only; browsers count
 * http://localhost as secure), SameSite=Strict (the form posts from this origin to itself).
 */
const deviceCookie = (token: string, maxAgeMs: number) =>
  `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; Secure; HttpOnly; SameSite=Strict`;

/**
 * POST /oauth/authorize/signin: the consent page after a good password (for the console, the
 * redirect with a code at once), the sign-in page again otherwise.
 */
export function registerOAuthSignIn(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.authorize.signin"), (c) =>
    asPage(c, async () => {
      requireSameOrigin(c);
      const ctx = c.get("ctx");
      const form = await formParameters(c);
      const outcome = await signInInteraction({ ctx, form, deviceToken: getCookie(c, DEVICE_COOKIE) });
      if (outcome.kind === "retry") return htmlResponse(signInPage(outcome), 401);
      if (isFirstParty(ctx.deps.oauth, outcome.request.client_id)) {
        // The console is Flowstate itself (ADR 0015): nothing to consent to, so the sign-in allows
        // at once, through the same verb and checks as a consent (the interaction is consumed).
        const { location } = await consent({
          ctx,
          form: { interaction: outcome.interaction, csrf: outcome.csrf, decision: "allow" },
        });
        const res = new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
        res.headers.append("set-cookie", deviceCookie(outcome.deviceToken, ctx.deps.signInThrottle.deviceTtlMs));
        return res;
      }
      // The consent form's answer redirects to the client, and form-action governs that redirect too.
      const res = htmlResponse(consentPage(outcome), 200, [redirectTarget(outcome.request.redirect_uri)]);
      res.headers.append("set-cookie", deviceCookie(outcome.deviceToken, ctx.deps.signInThrottle.deviceTtlMs));
      return res;
    }),
  );
}
