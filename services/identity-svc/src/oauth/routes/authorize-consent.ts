import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { asPage, requireSameOrigin } from "../http/browser.ts";
import { formParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { consent } from "../verbs/consent.ts";

/** POST /oauth/authorize/consent: 303 to the client with a code (or access_denied). */
export function registerOAuthConsent(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.authorize.consent"), (c) =>
    asPage(c, async () => {
      requireSameOrigin(c);
      const { location } = await consent({ ctx: c.get("ctx"), form: await formParameters(c) });
      return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
    }),
  );
}
