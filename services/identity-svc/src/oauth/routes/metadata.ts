import { type AuthorizationServerMetadata, OAUTH_SCOPES } from "@flowstate/contracts/rest/identity/oauth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import type { IdentityApp } from "../../http/env.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";

/**
 * RFC 8414 metadata at the root of the issuer (an issuer without a path, so every client's
 * discovery order finds it, and `issuer` equals the URL it was fetched under, which 2026-07-28
 * clients check). No OpenID discovery: no ID tokens are issued.
 */
export function registerOAuthMetadata(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.metadata"), (c) => {
    const issuer = c.get("ctx").deps.oauth.issuer;
    const body: AuthorizationServerMetadata = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: [...OAUTH_SCOPES],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
    c.header("cache-control", "public, max-age=300");
    c.header("access-control-allow-origin", "*"); // browser-based MCP clients discover from other origins
    return c.json(body, 200);
  });
}
