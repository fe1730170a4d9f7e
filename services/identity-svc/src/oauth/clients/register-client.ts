import type { ClientRegistrationResponse } from "@flowstate/contracts/rest/identity/oauth";
import { ClientRegistrationRequest } from "@flowstate/contracts/rest/identity/oauth";
import { newId } from "@flowstate/shared/ids/new-id";
import { inTransaction, now, type ServiceContext } from "../../context.ts";
import { OAuthClient } from "../db/entities.ts";
import { OAuthProtocolError } from "../http/oauth-error.ts";
import { applicationTypeOf, registrableRedirectUri } from "../redirect-uri.ts";
import { parseScopes } from "../scopes.ts";

const badMetadata = (d: string) => new OAuthProtocolError("invalid_client_metadata", d);

/**
 * RFC 7591 dynamic registration of a public client: no secret is issued or kept, the token
 * endpoint method is always `none`, and only code and refresh grants exist. Redirect URIs must be
 * https, loopback http or a native app's private-use scheme (RFC 8252). The client id is ours
 * (`cli_…`, never an https URL, so it cannot be taken for a metadata document).
 */
export async function registerClient({
  ctx,
  body,
}: {
  ctx: ServiceContext;
  body: unknown;
}): Promise<ClientRegistrationResponse> {
  if (typeof body === "object" && body !== null) {
    const b = body as Record<string, unknown>;
    if (b.token_endpoint_auth_method !== undefined && b.token_endpoint_auth_method !== "none")
      throw badMetadata("only public clients (token_endpoint_auth_method none) can register");
    if (
      Array.isArray(b.redirect_uris) &&
      b.redirect_uris.some((u) => typeof u !== "string" || !registrableRedirectUri(u))
    )
      throw new OAuthProtocolError(
        "invalid_redirect_uri",
        "redirect URIs must be https, http on a loopback address, or a private-use scheme, without a fragment",
      );
  }
  const parsed = ClientRegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") || "the metadata";
    throw badMetadata(`${field} is missing or invalid`);
  }
  const input = parsed.data;
  if (input.scope !== undefined && parseScopes(input.scope) === null) throw badMetadata("scope names an unknown scope");
  const answer: ClientRegistrationResponse = {
    client_id: newId("cli"),
    client_id_issued_at: Math.floor(now(ctx).getTime() / 1000),
    ...(input.client_name ? { client_name: input.client_name } : {}),
    redirect_uris: input.redirect_uris,
    grant_types: input.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: input.application_type ?? applicationTypeOf(input.redirect_uris),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.client_uri ? { client_uri: input.client_uri } : {}),
  };
  await inTransaction(ctx, async (em) => {
    em.create(OAuthClient, {
      client_id: answer.client_id,
      client_name: input.client_name ?? null,
      redirect_uris: input.redirect_uris,
      metadata: answer,
      created_at: now(ctx),
    });
  });
  return answer;
}
