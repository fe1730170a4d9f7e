import { TokenRequest } from "@flowstate/contracts/rest/identity/oauth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { oauthEndpoint } from "../http/endpoint.ts";
import { formParameters, parseParameters } from "../http/form.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { OAuthProtocolError } from "../http/oauth-error.ts";
import { exchangeCode } from "../verbs/exchange-code.ts";
import { refreshGrant } from "../verbs/refresh-grant.ts";

const GRANTS = new Set(["authorization_code", "refresh_token"]);

/** POST /oauth/token: the authorization_code and refresh_token grants of public clients. */
export function registerOAuthToken(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.token"), (c) =>
    oauthEndpoint(c, async () => {
      const params = await formParameters(c);
      if (params.grant_type && !GRANTS.has(params.grant_type))
        throw new OAuthProtocolError(
          "unsupported_grant_type",
          "only authorization_code and refresh_token are supported",
        );
      // A confidential client's credentials mean a client we do not have: all ours are public.
      if (params.client_secret || c.req.header("authorization"))
        throw new OAuthProtocolError("invalid_client", "clients of this server are public: no client secret", 401);
      const input = parseParameters(params, TokenRequest);
      const ctx = c.get("ctx");
      const tokens =
        input.grant_type === "authorization_code"
          ? await exchangeCode({ ctx, input })
          : await refreshGrant({ ctx, input });
      return c.json(tokens, 200);
    }),
  );
}
