import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { asPage, htmlResponse } from "../http/browser.ts";
import { queryParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { signInPage } from "../pages/signin-page.ts";
import { clientRedirect } from "../verbs/redirect.ts";
import { startAuthorization } from "../verbs/start-authorization.ts";

/** GET /oauth/authorize: the sign-in page of a valid request, an error redirect, or an error page. */
export function registerOAuthAuthorize(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.authorize"), (c) =>
    asPage(c, async () => {
      const ctx = c.get("ctx");
      const started = await startAuthorization({ ctx, params: queryParameters(c) });
      if (started.kind === "error") {
        const { error, redirectUri, state } = started;
        const location = clientRedirect(redirectUri, {
          error: error.error,
          error_description: error.message,
          state,
          iss: ctx.deps.oauth.issuer,
        });
        return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
      }
      return htmlResponse(signInPage(started), 200);
    }),
  );
}
