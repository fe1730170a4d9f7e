import { accessOf } from "../access.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import {
  AuthorizationServerMetadata,
  AuthorizeConsentForm,
  AuthorizeQuery,
  AuthorizeSignInForm,
  ClientRegistrationRequest,
  ClientRegistrationResponse,
  OAuthTokenResponse,
  RevokeRequest,
  TokenRequest,
} from "./oauth.ts";

// `public` is a reserved word in a module, hence the other name.
const { public: anyone } = accessOf("identity-svc");

/**
 * identity-svc as the OAuth 2.1 authorization server of MCP clients (services/identity-svc/src/oauth,
 * docs/adr). The issuer is the gateway's public origin (JWT_ISSUER), so every endpoint below is
 * reached through the gateway. Browser steps answer HTML; protocol endpoints answer OAuth errors.
 */
export const oauthRoutes = [
  defineRoute({
    id: "oauth.metadata",
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    ...anyone,
    summary: "Authorization server metadata (RFC 8414)",
    responses: { 200: AuthorizationServerMetadata },
  }),
  defineRoute({
    id: "oauth.authorize",
    method: "GET",
    path: "/oauth/authorize",
    ...anyone,
    summary: "Start an authorization (code + PKCE S256): the sign-in page, or an error redirect",
    query: AuthorizeQuery,
    media: { response: "html" },
    responses: { 200: null, 302: null },
  }),
  defineRoute({
    id: "oauth.authorize.signin",
    method: "POST",
    path: "/oauth/authorize/signin",
    ...anyone,
    summary: "The sign-in form of the authorization page; answers the consent page",
    body: AuthorizeSignInForm,
    media: { body: "form", response: "html" },
    responses: { 200: null },
  }),
  defineRoute({
    id: "oauth.authorize.consent",
    method: "POST",
    path: "/oauth/authorize/consent",
    ...anyone,
    summary: "The consent form: redirects to the client with a code (or access_denied)",
    body: AuthorizeConsentForm,
    media: { body: "form", response: "html" },
    responses: { 303: null },
  }),
  defineRoute({
    id: "oauth.token",
    method: "POST",
    path: "/oauth/token",
    ...anyone,
    summary: "Trade a code (with its PKCE verifier) or a refresh token for tokens; refresh tokens rotate",
    body: TokenRequest,
    media: { body: "form" },
    problems: [
      "OAUTH_INVALID_REQUEST",
      "OAUTH_INVALID_GRANT",
      "OAUTH_UNSUPPORTED_GRANT_TYPE",
      "OAUTH_INVALID_SCOPE",
      "OAUTH_INVALID_TARGET",
      "OAUTH_INVALID_CLIENT",
    ],
    errors: "oauth",
    responses: { 200: OAuthTokenResponse },
  }),
  defineRoute({
    id: "oauth.register",
    method: "POST",
    path: "/oauth/register",
    ...anyone,
    summary:
      "Register a public client (RFC 7591); no secret is issued. At most 10 registrations an hour per client address (429 temporarily_unavailable with Retry-After), metadata up to 4 KB, no name that reads as Flowstate; a client never used for a token is deleted a day after its registration",
    body: ClientRegistrationRequest,
    problems: ["OAUTH_INVALID_CLIENT_METADATA", "OAUTH_INVALID_REDIRECT_URI", "OAUTH_TEMPORARILY_UNAVAILABLE"],
    errors: "oauth",
    responses: { 201: ClientRegistrationResponse },
  }),
  defineRoute({
    id: "oauth.revoke",
    method: "POST",
    path: "/oauth/revoke",
    ...anyone,
    summary: "Revoke a refresh or access token and its whole grant (RFC 7009)",
    body: RevokeRequest,
    media: { body: "form" },
    problems: ["OAUTH_INVALID_REQUEST"],
    errors: "oauth",
    responses: { 200: null },
  }),
] as const satisfies readonly RouteSpec[];
