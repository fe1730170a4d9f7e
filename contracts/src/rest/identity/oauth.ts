import { z } from "zod";
import { TenantId } from "../../ids.ts";
import { FreeText } from "../../text.ts";
import { Timestamp } from "./common.ts";

/**
 * identity-svc as the OAuth 2.1 authorization server MCP clients sign in with (RFC 8414 metadata,
 * authorization code + PKCE S256, RFC 7591 registration, Client ID Metadata Documents, RFC 8707
 * resource indicators, RFC 7009 revocation). Field names are the RFCs' own (snake_case).
 */

/** The scopes an MCP client can ask for; `account` covers export and deletion of the user's own account. */
export const OAuthScope = z.enum(["marketplace:read", "marketplace:write", "account"]);
export type OAuthScope = z.infer<typeof OAuthScope>;
export const OAUTH_SCOPES = OAuthScope.options;

/**
 * The seller console's client id (services/web-console): a first-party client identity-svc knows
 * from its own configuration (issuer and REST audience), never registered through RFC 7591. Its
 * tokens are for the REST API, and it gets no consent page (ADR 0015).
 */
export const CONSOLE_CLIENT_ID = "cli_flowstateconsole";
/** Where identity-svc sends the console's browser back with a code, under the issuer's origin. */
export const CONSOLE_CALLBACK_PATH = "/app/auth/callback";
/** The REST API's resource indicator (RFC 8707) the console asks for: the issuer's `/v1`. */
export const REST_RESOURCE_PATH = "/v1";

/** A client we registered (`cli_…`) or, for a Client ID Metadata Document, `cli_` + a digest of its URL. */
export const ClientRef = z.string().regex(/^cli_[0-9A-Za-z]{10,64}$/, "expected an id of the form cli_…");

/** RFC 8414 section 2, as identity-svc fills it. */
export const AuthorizationServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  jwks_uri: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.literal("code")),
  response_modes_supported: z.array(z.literal("query")),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.literal("none")),
  revocation_endpoint_auth_methods_supported: z.array(z.literal("none")),
  code_challenge_methods_supported: z.array(z.literal("S256")),
  client_id_metadata_document_supported: z.literal(true),
  authorization_response_iss_parameter_supported: z.literal(true),
  service_documentation: z.string().optional(),
});
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadata>;

/** GET /oauth/authorize (RFC 6749 section 4.1.1 with PKCE and RFC 8707 `resource`). */
export const AuthorizeQuery = z.object({
  response_type: z.string(),
  client_id: z.string(),
  redirect_uri: z.string().optional(),
  scope: z.string().optional(),
  state: z.string().optional(),
  code_challenge: z.string(),
  code_challenge_method: z.literal("S256"),
  resource: z.string().optional(),
});

/** The sign-in step of the authorization page (application/x-www-form-urlencoded). */
export const AuthorizeSignInForm = z.object({
  interaction: z.string(),
  csrf: z.string(),
  email: z.string(),
  password: z.string(),
});

/** The consent step: allow (with the tenant the tokens act in) or deny. */
export const AuthorizeConsentForm = z.object({
  interaction: z.string(),
  csrf: z.string(),
  decision: z.enum(["allow", "deny"]),
  tenant_id: TenantId.optional(),
});

/** POST /oauth/token (application/x-www-form-urlencoded): the two grants a public client uses. */
export const TokenRequest = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("authorization_code"),
    code: z.string(),
    redirect_uri: z.string(),
    client_id: z.string(),
    code_verifier: z.string(),
    resource: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string(),
    client_id: z.string(),
    scope: z.string().optional(),
    resource: z.string().optional(),
  }),
]);

export const OAuthTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().positive().max(900),
  refresh_token: z.string(),
  scope: z.string(),
});
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponse>;

/** RFC 6749 section 5.2 / RFC 7591 section 3.2.2 error object (the problem members are added beside it). */
export const OAuthError = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

/** POST /oauth/revoke (RFC 7009). */
export const RevokeRequest = z.object({
  token: z.string(),
  token_type_hint: z.enum(["refresh_token", "access_token"]).optional(),
  client_id: z.string(),
});

/** RFC 7591 registration request, the subset a public client may register (unknown members are ignored). */
/** The largest registration body (UTF-8 bytes of the JSON) accepted: real clients send well under 1 KB. */
export const CLIENT_METADATA_MAX_BYTES = 4096;

/**
 * RFC 7591 client metadata. The caps bound what one registration stores (issue 20 finding 8: one
 * address stored 79 clients of up to 24 KB each); the whole body is capped at
 * CLIENT_METADATA_MAX_BYTES as well.
 */
export const ClientRegistrationRequest = z.object({
  redirect_uris: z.array(z.string().min(1).max(512)).min(1).max(10),
  // Shown on the consent page ("<client_name> wants access"): a bidi override there could make one client read as another.
  client_name: FreeText(100).optional(),
  client_uri: z.string().max(512).optional(),
  logo_uri: z.string().max(512).optional(),
  scope: z.string().max(200).optional(),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    .min(1)
    .optional(),
  response_types: z.array(z.literal("code")).min(1).optional(),
  token_endpoint_auth_method: z.literal("none").optional(),
  application_type: z.enum(["native", "web"]).optional(),
  software_id: z.string().max(100).optional(),
  software_version: z.string().max(50).optional(),
});
export type ClientRegistrationRequest = z.infer<typeof ClientRegistrationRequest>;

export const ClientRegistrationResponse = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string().optional(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.literal("none"),
  application_type: z.enum(["native", "web"]),
  scope: z.string().optional(),
  client_uri: z.string().optional(),
});
export type ClientRegistrationResponse = z.infer<typeof ClientRegistrationResponse>;

/** One client the signed-in user authorized, with what it was given (GET /v1/users/me/authorized-clients). */
export const AuthorizedClient = z.object({
  client_ref: ClientRef,
  client_id: z.string(),
  client_name: z.string(),
  /** Registered through RFC 7591 (`registered`) or identified by its metadata document's URL (`metadata_document`). */
  client_type: z.enum(["registered", "metadata_document"]),
  scopes: z.array(OAuthScope),
  tenant_ids: z.array(TenantId),
  resources: z.array(z.string()),
  authorized_at: Timestamp,
  last_used_at: Timestamp,
});
export type AuthorizedClient = z.infer<typeof AuthorizedClient>;
export const AuthorizedClientList = z.object({ authorized_clients: z.array(AuthorizedClient) });
export type AuthorizedClientList = z.infer<typeof AuthorizedClientList>;
export const AuthorizedClientPath = z.object({ client_ref: ClientRef });
