import { CLIENT_METADATA_MAX_BYTES } from "@flowstate/contracts/rest/identity/oauth";
import { routeIn } from "@flowstate/contracts/rest/route";
import { oauthRoutes } from "@flowstate/contracts/rest/routes";
import { utf8Body } from "@flowstate/shared/http/utf8-body";
import type { IdentityApp } from "../../http/env.ts";
import { registerClient } from "../clients/register-client.ts";
import { oauthEndpoint } from "../http/endpoint.ts";
import { mountProtocolRoute } from "../http/mount-protocol-route.ts";
import { OAuthProtocolError } from "../http/oauth-error.ts";

/** POST /oauth/register: RFC 7591 dynamic registration of a public client. */
export function registerOAuthRegister(app: IdentityApp): void {
  mountProtocolRoute(app, routeIn(oauthRoutes, "oauth.register"), (c) =>
    oauthEndpoint(c, async () => {
      if (!/^application\/json\s*(?:;|$)/i.test(c.req.header("content-type") ?? ""))
        throw new OAuthProtocolError("invalid_client_metadata", "the body must be application/json");
      // Not c.req.text(): it would turn bytes that are not UTF-8 into U+FFFD and store the client name so.
      const text = await utf8Body(c);
      if (text === undefined) throw new OAuthProtocolError("invalid_client_metadata", "the body is not valid UTF-8");
      if (Buffer.byteLength(text) > CLIENT_METADATA_MAX_BYTES)
        throw new OAuthProtocolError(
          "invalid_client_metadata",
          `the metadata is larger than ${CLIENT_METADATA_MAX_BYTES} bytes of JSON`,
        );
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new OAuthProtocolError("invalid_client_metadata", "the body is not valid JSON");
      }
      // The edge gateway replaces any X-Forwarded-For with the address it saw (behind TRUSTED_PROXIES,
      // the client they name). A caller that bypassed the gateway could set its own, but it would
      // bypass the gateway's per-client limit as well; those all share one "direct" count here.
      const clientAddress = c.req.header("x-forwarded-for")?.trim() || "direct";
      return c.json(await registerClient({ ctx: c.get("ctx"), body, clientAddress }), 201);
    }),
  );
}
