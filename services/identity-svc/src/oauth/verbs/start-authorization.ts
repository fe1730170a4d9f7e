import { AuthorizeQuery } from "@flowstate/contracts/rest/identity/oauth";
import { inTransaction, type ServiceContext } from "../../context.ts";
import { type ResolvedClient, resolveClient, UnknownClientError } from "../clients/resolve-client.ts";
import type { AuthorizationRequest } from "../db/entities.ts";
import { PageError } from "../pages/error-page.ts";
import { redirectUriAllowed } from "../redirect-uri.ts";
import { resolveResource } from "../resource.ts";
import { parseScopes } from "../scopes.ts";
import { createInteraction } from "./interactions.ts";
import { RedirectError } from "./redirect.ts";

export type AuthorizationStart =
  | { kind: "signin"; request: AuthorizationRequest; interaction: string; csrf: string }
  | { kind: "error"; redirectUri: string; state: string | undefined; error: RedirectError };

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/; // base64url of a SHA-256 digest, unpadded (RFC 7636 section 4.2)

/**
 * Validates GET /oauth/authorize. Until the client and its redirect URI are known good, a problem
 * is shown on our page (never redirected: an unregistered redirect URI would make this an open
 * redirector); after that, problems go back to the client as `error` redirects. PKCE S256 is
 * required (`plain` and a missing challenge refused), `resource` must be a configured resource
 * (RFC 8707; absent → the only one), scopes must be ours. A valid request opens an interaction.
 */
export async function startAuthorization({
  ctx,
  params,
}: {
  ctx: ServiceContext;
  params: Record<string, string>;
}): Promise<AuthorizationStart> {
  const clientId = params.client_id;
  if (!clientId) throw new PageError(400, "Unknown application", "The request names no client_id.", "INVALID_CLIENT");
  let client: ResolvedClient;
  try {
    client = await resolveClient(ctx, clientId);
  } catch (err) {
    if (!(err instanceof UnknownClientError)) throw err;
    throw new PageError(
      400,
      "Unknown application",
      "The application asking for access is not registered, or its metadata document could not be verified.",
      `INVALID_CLIENT_${err.reason.toUpperCase()}`,
    );
  }
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !redirectUriAllowed(client.redirectUris, redirectUri))
    throw new PageError(
      400,
      "Invalid redirect",
      "The address this application wants to send you back to is not one it registered.",
      "INVALID_REDIRECT_URI",
    );

  const state = params.state;
  const fail = (error: string, description: string): AuthorizationStart => ({
    kind: "error",
    redirectUri,
    state,
    error: new RedirectError(error, description),
  });
  if (params.response_type !== "code") return fail("unsupported_response_type", "only response_type=code is supported");
  if (!params.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (params.code_challenge_method !== "S256")
    return fail("invalid_request", "code_challenge_method must be S256; plain is not accepted");
  const query = AuthorizeQuery.safeParse(params);
  if (!query.success || !S256_CHALLENGE.test(params.code_challenge))
    return fail("invalid_request", "the request is malformed");
  if (state !== undefined && state.length > 1000) return fail("invalid_request", "state is too long");
  const scopes = parseScopes(params.scope);
  if (scopes === null) return fail("invalid_scope", "the scope names an unknown scope");
  // The console's tokens are for the REST API and only the console's: no other client can ask for
  // a token the edge gateway takes as a full user session (its scopes do not apply there).
  const resource =
    client.kind === "first_party"
      ? resolveResource(params.resource, [ctx.deps.oauth.firstParty.resource]) && ctx.deps.oauth.firstParty.audience
      : resolveResource(params.resource, ctx.deps.oauth.resources);
  if (resource === null) return fail("invalid_target", "the resource is not one this server issues tokens for");

  const request: AuthorizationRequest = {
    client_id: client.clientId,
    client_name: client.name,
    client_host: client.host,
    redirect_uri: redirectUri,
    scopes,
    state: state ?? null,
    code_challenge: params.code_challenge,
    resource,
  };
  const { interaction, csrf } = await inTransaction(ctx, (em) => createInteraction(ctx, em, request));
  return { kind: "signin", request, interaction, csrf };
}
