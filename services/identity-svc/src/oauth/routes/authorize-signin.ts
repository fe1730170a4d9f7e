import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { asPage, htmlResponse, redirectTarget, requireSameOrigin } from "../http/browser.ts";
import { formParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { consentPage } from "../pages/consent-page.ts";
import { signInPage } from "../pages/signin-page.ts";
import { signInInteraction } from "../verbs/sign-in-interaction.ts";

/** POST /oauth/authorize/signin: the consent page after a good password, the sign-in page again otherwise. */
export function registerOAuthSignIn(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.authorize.signin"), (c) =>
    asPage(c, async () => {
      requireSameOrigin(c);
      const outcome = await signInInteraction({ ctx: c.get("ctx"), form: await formParameters(c) });
      if (outcome.kind === "retry") return htmlResponse(signInPage(outcome), 401);
      // The consent form's answer redirects to the client, and form-action governs that redirect too.
      return htmlResponse(consentPage(outcome), 200, [redirectTarget(outcome.request.redirect_uri)]);
    }),
  );
}
