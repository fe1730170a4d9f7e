import { RevokeRequest } from "@flowstate/contracts/rest/identity/oauth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { oauthEndpoint } from "../http/endpoint.ts";
import { formParameters, parseParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { revokeToken } from "../verbs/revoke-token.ts";

/** POST /oauth/revoke (RFC 7009): 200 whatever the token was; its family ends when it was this client's. */
export function registerOAuthRevoke(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.revoke"), (c) =>
    oauthEndpoint(c, async () => {
      const input = parseParameters(await formParameters(c), RevokeRequest);
      await revokeToken({ ctx: c.get("ctx"), input });
      return c.body(null, 200);
    }),
  );
}
