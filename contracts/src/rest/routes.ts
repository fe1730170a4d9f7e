import { z } from "zod";
import { AuditEventList, MyAuditQuery, TenantAuditQuery } from "./audit/audit-events.ts";
import { HealthReport } from "./connector/diagnosis.ts";
import {
  ConnectorStatus,
  ConnectRequest,
  ConnectResponse,
  OnboardingBundle,
  ProductList,
  ProductsQuery,
} from "./connector/marketplace.ts";
import { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from "./identity/api-keys.ts";
import { Jwks, RefreshRequest, SignInRequest, SignUpRequest, SignUpResponse, TokenResponse } from "./identity/auth.ts";
import { ApiKeyPath, MemberPath, TenantPath } from "./identity/common.ts";
import { InvitationPath, ReceivedInvitation, ReceivedInvitationList, SentInvitation } from "./identity/invitations.ts";
import { AddMemberRequest, ChangeMemberRoleRequest, Member, MemberList } from "./identity/members.ts";
import {
  AuthorizationServerMetadata,
  AuthorizeConsentForm,
  AuthorizedClientList,
  AuthorizedClientPath,
  AuthorizeQuery,
  AuthorizeSignInForm,
  ClientRegistrationRequest,
  ClientRegistrationResponse,
  OAuthTokenResponse,
  RevokeRequest,
  TokenRequest,
} from "./identity/oauth.ts";
import {
  CreateTenantRequest,
  FeatureFlags,
  OwnershipTransferRequest,
  RenameTenantRequest,
  Tenant,
  TenantList,
  UpdateFeatureFlagsRequest,
} from "./identity/tenants.ts";
import {
  AccountDeleted,
  DeleteAccountRequest,
  NotificationPreferences,
  Profile,
  UpdateNotificationPreferencesRequest,
  UpdateProfileRequest,
} from "./identity/users.ts";
import { offersRoutes } from "./offers/routes.ts";
import { PartnerEngagementList, PartnerListQuery, PartnerOpportunityList } from "./partner/sync-state.ts";
import { ExportJob, ExportJobPath, ExportStarted } from "./privacy/exports.ts";
import { defineRoute, type RouteSpec } from "./route.ts";

/**
 * Every public REST route, once. The gateway routes, authorizes (auth kind, minRole, API key scope)
 * and documents (OpenAPI) from this list, and the authorization-matrix tests enumerate it, so a
 * route that is not here does not exist. Services append their routes below their own heading.
 *
 * Identity's rules the registry cannot express (enforced by identity-svc): the owner cannot be
 * removed or demoted, an admin cannot change the owner, `owner` is given only by a transfer.
 */
const identity = "identity-svc" as const;

export const identityRoutes = [
  // auth (public: no credential)
  defineRoute({
    id: "auth.signup",
    method: "POST",
    path: "/v1/auth/signup",
    service: identity,
    auth: "public",
    summary: "Create an account with e-mail and password",
    body: SignUpRequest,
    responses: { 201: SignUpResponse },
  }),
  defineRoute({
    id: "auth.signin",
    method: "POST",
    path: "/v1/auth/signin",
    service: identity,
    auth: "public",
    summary: "Sign in: an access token and a refresh token",
    body: SignInRequest,
    problems: ["INVALID_CREDENTIALS", "ACCOUNT_DISABLED", "SIGN_IN_THROTTLED"],
    responses: { 200: TokenResponse },
  }),
  defineRoute({
    id: "auth.refresh",
    method: "POST",
    path: "/v1/auth/refresh",
    service: identity,
    auth: "public",
    summary: "Trade a refresh token for new tokens (the old refresh token is spent)",
    body: RefreshRequest,
    problems: ["INVALID_REFRESH_TOKEN"],
    responses: { 200: TokenResponse },
  }),
  defineRoute({
    id: "auth.signout",
    method: "POST",
    path: "/v1/auth/signout",
    service: identity,
    auth: "user",
    summary: "End the current session (its refresh tokens stop working)",
    responses: { 204: null },
  }),
  defineRoute({
    id: "auth.jwks",
    method: "GET",
    path: "/.well-known/jwks.json",
    service: identity,
    auth: "public",
    summary: "The public keys access tokens are signed with",
    responses: { 200: Jwks },
  }),
  // the signed-in user
  defineRoute({
    id: "users.me.get",
    method: "GET",
    path: "/v1/users/me",
    service: identity,
    auth: "user",
    summary: "Your profile",
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: Profile },
  }),
  defineRoute({
    id: "users.me.update",
    method: "PATCH",
    path: "/v1/users/me",
    service: identity,
    auth: "user",
    summary: "Change your name or picture",
    body: UpdateProfileRequest,
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: Profile },
  }),
  defineRoute({
    id: "users.me.delete",
    method: "DELETE",
    path: "/v1/users/me",
    service: identity,
    auth: "user",
    summary:
      "Delete your account: needs a sign-in at most 15 minutes old, or {password} in the body (401 REAUTHENTICATION_REQUIRED otherwise); 409 OWNS_ACTIVE_TENANTS while you own a tenant",
    body: DeleteAccountRequest,
    problems: [
      "ACCOUNT_INACTIVE",
      "OWNS_ACTIVE_TENANTS",
      "REAUTHENTICATION_REQUIRED",
      "INVALID_CREDENTIALS",
      "SIGN_IN_THROTTLED",
    ],
    responses: { 200: AccountDeleted },
  }),
  defineRoute({
    id: "users.me.notification_preferences.get",
    method: "GET",
    path: "/v1/users/me/notification-preferences",
    service: identity,
    auth: "user",
    summary: "Your notification preferences",
    responses: { 200: NotificationPreferences },
  }),
  defineRoute({
    id: "users.me.notification_preferences.update",
    method: "PUT",
    path: "/v1/users/me/notification-preferences",
    service: identity,
    auth: "user",
    summary: "Change notification preferences (omitted keys keep their value)",
    body: UpdateNotificationPreferencesRequest,
    responses: { 200: NotificationPreferences },
  }),
  defineRoute({
    id: "users.me.authorized_clients.list",
    method: "GET",
    path: "/v1/users/me/authorized-clients",
    service: identity,
    auth: "user",
    summary: "The applications (MCP clients) you authorized, with their scopes and tenants",
    responses: { 200: AuthorizedClientList },
  }),
  defineRoute({
    id: "users.me.authorized_clients.revoke",
    method: "DELETE",
    path: "/v1/users/me/authorized-clients/{client_ref}",
    service: identity,
    auth: "user",
    summary: "Revoke an application: its refresh and access tokens stop working",
    params: AuthorizedClientPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "users.me.invitations.list",
    method: "GET",
    path: "/v1/users/me/invitations",
    service: identity,
    auth: "user",
    summary: "Your pending invitations: to join a tenant, or to take one over",
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: ReceivedInvitationList },
  }),
  defineRoute({
    id: "users.me.invitations.accept",
    method: "POST",
    path: "/v1/users/me/invitations/{invitation_id}/accept",
    service: identity,
    auth: "user",
    summary: "Accept an invitation: you become a member (or the owner) of the tenant",
    params: InvitationPath,
    problems: ["ACCOUNT_INACTIVE", "INVITATION_EXPIRED", "INVITATION_NOT_PENDING", "ALREADY_MEMBER", "NOT_A_MEMBER"],
    responses: { 200: ReceivedInvitation },
  }),
  defineRoute({
    id: "users.me.invitations.decline",
    method: "POST",
    path: "/v1/users/me/invitations/{invitation_id}/decline",
    service: identity,
    auth: "user",
    summary: "Decline an invitation",
    params: InvitationPath,
    problems: ["ACCOUNT_INACTIVE", "INVITATION_EXPIRED", "INVITATION_NOT_PENDING"],
    responses: { 200: ReceivedInvitation },
  }),
  // tenants
  defineRoute({
    id: "tenants.create",
    method: "POST",
    path: "/v1/tenants",
    service: identity,
    auth: "user",
    summary: "Create a tenant; you become its owner",
    body: CreateTenantRequest,
    responses: { 201: Tenant },
  }),
  defineRoute({
    id: "tenants.list",
    method: "GET",
    path: "/v1/tenants",
    service: identity,
    auth: "user",
    summary: "The tenants you are a member of",
    responses: { 200: TenantList },
  }),
  defineRoute({
    id: "tenants.get",
    method: "GET",
    path: "/v1/tenants/{id}",
    service: identity,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    summary: "A tenant",
    params: TenantPath,
    responses: { 200: Tenant },
  }),
  defineRoute({
    id: "tenants.rename",
    method: "PATCH",
    path: "/v1/tenants/{id}",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Rename a tenant",
    params: TenantPath,
    body: RenameTenantRequest,
    responses: { 200: Tenant },
  }),
  defineRoute({
    id: "tenants.delete",
    method: "DELETE",
    path: "/v1/tenants/{id}",
    service: identity,
    auth: "tenant",
    minRole: "owner",
    summary: "Soft-delete a tenant (owner only)",
    params: TenantPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "tenants.ownership_transfer",
    method: "POST",
    path: "/v1/tenants/{id}/ownership-transfer",
    service: identity,
    auth: "tenant",
    minRole: "owner",
    summary:
      "Ask a member to become the owner: a pending transfer they accept or decline within 7 days; until then nothing changes",
    params: TenantPath,
    body: OwnershipTransferRequest,
    problems: ["NOT_A_MEMBER", "ALREADY_OWNER"],
    responses: { 202: SentInvitation },
  }),
  // members
  defineRoute({
    id: "members.list",
    method: "GET",
    path: "/v1/tenants/{id}/members",
    service: identity,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    summary: "The tenant's members",
    params: TenantPath,
    responses: { 200: MemberList },
  }),
  defineRoute({
    id: "members.add",
    method: "POST",
    path: "/v1/tenants/{id}/members",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary:
      "Invite an e-mail address: they become a member when they accept (the answer is the same whether or not the address has an account)",
    params: TenantPath,
    body: AddMemberRequest,
    problems: ["ALREADY_MEMBER"],
    responses: { 201: SentInvitation },
  }),
  defineRoute({
    id: "members.update",
    method: "PATCH",
    path: "/v1/tenants/{id}/members/{sub}",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Change a member's role",
    params: MemberPath,
    body: ChangeMemberRoleRequest,
    problems: ["LAST_OWNER"],
    responses: { 200: Member },
  }),
  defineRoute({
    id: "members.remove",
    method: "DELETE",
    path: "/v1/tenants/{id}/members/{sub}",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Remove a member (not the owner); API keys they created are revoked",
    params: MemberPath,
    problems: ["LAST_OWNER"],
    responses: { 204: null },
  }),
  // feature flags
  defineRoute({
    id: "features.get",
    method: "GET",
    path: "/v1/tenants/{id}/features",
    service: identity,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    summary: "The tenant's feature flags",
    params: TenantPath,
    responses: { 200: FeatureFlags },
  }),
  defineRoute({
    id: "features.update",
    method: "PUT",
    path: "/v1/tenants/{id}/features",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Turn feature flags on or off",
    params: TenantPath,
    body: UpdateFeatureFlagsRequest,
    responses: { 200: FeatureFlags },
  }),
  // API keys
  defineRoute({
    id: "api_keys.list",
    method: "GET",
    path: "/v1/tenants/{id}/api-keys",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "The tenant's API keys (never their secrets)",
    params: TenantPath,
    responses: { 200: ApiKeyList },
  }),
  defineRoute({
    id: "api_keys.create",
    method: "POST",
    path: "/v1/tenants/{id}/api-keys",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Create an API key; the secret is shown once",
    params: TenantPath,
    body: CreateApiKeyRequest,
    responses: { 201: CreatedApiKey },
  }),
  defineRoute({
    id: "api_keys.revoke",
    method: "DELETE",
    path: "/v1/tenants/{id}/api-keys/{key_id}",
    service: identity,
    auth: "tenant",
    minRole: "admin",
    summary: "Revoke an API key",
    params: ApiKeyPath,
    responses: { 204: null },
  }),
] as const satisfies readonly RouteSpec[];

const partner = "partner-svc" as const;

/** partner-svc: the tenant's partner-program sync state (AWS Partner Central), read-only. */
export const partnerRoutes = [
  defineRoute({
    id: "partner.opportunities.list",
    method: "GET",
    path: "/v1/tenants/{id}/partner/opportunities",
    service: partner,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    summary: "Partner Central opportunities of the tenant's seller account, newest event first",
    params: TenantPath,
    query: PartnerListQuery,
    responses: { 200: PartnerOpportunityList },
  }),
  defineRoute({
    id: "partner.engagements.list",
    method: "GET",
    path: "/v1/tenants/{id}/partner/engagements",
    service: partner,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    summary: "Partner Central engagements and invitations of the tenant's seller account, newest event first",
    params: TenantPath,
    query: PartnerListQuery,
    responses: { 200: PartnerEngagementList },
  }),
] as const satisfies readonly RouteSpec[];

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
    service: identity,
    auth: "public",
    summary: "Authorization server metadata (RFC 8414)",
    responses: { 200: AuthorizationServerMetadata },
  }),
  defineRoute({
    id: "oauth.authorize",
    method: "GET",
    path: "/oauth/authorize",
    service: identity,
    auth: "public",
    summary: "Start an authorization (code + PKCE S256): the sign-in page, or an error redirect",
    query: AuthorizeQuery,
    media: { response: "html" },
    responses: { 200: null, 302: null },
  }),
  defineRoute({
    id: "oauth.authorize.signin",
    method: "POST",
    path: "/oauth/authorize/signin",
    service: identity,
    auth: "public",
    summary: "The sign-in form of the authorization page; answers the consent page",
    body: AuthorizeSignInForm,
    media: { body: "form", response: "html" },
    responses: { 200: null },
  }),
  defineRoute({
    id: "oauth.authorize.consent",
    method: "POST",
    path: "/oauth/authorize/consent",
    service: identity,
    auth: "public",
    summary: "The consent form: redirects to the client with a code (or access_denied)",
    body: AuthorizeConsentForm,
    media: { body: "form", response: "html" },
    responses: { 303: null },
  }),
  defineRoute({
    id: "oauth.token",
    method: "POST",
    path: "/oauth/token",
    service: identity,
    auth: "public",
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
    service: identity,
    auth: "public",
    summary: "Register a public client (RFC 7591); no secret is issued",
    body: ClientRegistrationRequest,
    problems: ["OAUTH_INVALID_CLIENT_METADATA", "OAUTH_INVALID_REDIRECT_URI"],
    errors: "oauth",
    responses: { 201: ClientRegistrationResponse },
  }),
  defineRoute({
    id: "oauth.revoke",
    method: "POST",
    path: "/oauth/revoke",
    service: identity,
    auth: "public",
    summary: "Revoke a refresh or access token and its whole grant (RFC 7009)",
    body: RevokeRequest,
    media: { body: "form" },
    problems: ["OAUTH_INVALID_REQUEST"],
    errors: "oauth",
    responses: { 200: null },
  }),
] as const satisfies readonly RouteSpec[];

const connector = "connector-svc" as const;
const marketplace = "/v1/tenants/{id}/integrations/marketplace";

/**
 * The marketplace connector (interface.md §4.1, decisions.md). Every tenant route needs the
 * tenant's `marketplace_offers` flag, enforced by the gateway (403 FEATURE_DISABLED).
 */
export const connectorRoutes = [
  defineRoute({
    id: "marketplace.connector.get",
    method: "GET",
    path: marketplace,
    service: connector,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    feature: "marketplace_offers",
    summary: "The connector's status; the external ID is generated on the first read and kept until disconnect",
    params: TenantPath,
    responses: { 200: ConnectorStatus },
  }),
  defineRoute({
    id: "marketplace.connector.connect",
    method: "POST",
    path: marketplace,
    service: connector,
    auth: "tenant",
    minRole: "admin",
    apiKey: "write",
    feature: "marketplace_offers",
    summary:
      "Connect the seller account's MarketplaceConnector role: assumed with the external ID, verified with one catalog read (422 CONNECTOR_VERIFICATION_FAILED names the step)",
    params: TenantPath,
    body: ConnectRequest,
    problems: ["CONNECTOR_VERIFICATION_FAILED", "CONNECTOR_CHANGED"],
    responses: { 200: ConnectResponse },
  }),
  defineRoute({
    id: "marketplace.connector.disconnect",
    method: "DELETE",
    path: marketplace,
    service: connector,
    auth: "tenant",
    minRole: "admin",
    apiKey: "write",
    feature: "marketplace_offers",
    summary: "Disconnect: the connector and its external ID are discarded (the next read generates a new one)",
    params: TenantPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "marketplace.connector.onboarding",
    method: "GET",
    path: `${marketplace}/onboarding`,
    service: connector,
    auth: "tenant",
    minRole: "admin",
    apiKey: "write",
    feature: "marketplace_offers",
    summary:
      "The onboarding bundle: principals, account, stage, region, CloudFormation quick-create link, Terraform call, console steps and policies",
    params: TenantPath,
    responses: { 200: OnboardingBundle },
  }),
  defineRoute({
    id: "marketplace.connector.health",
    method: "GET",
    path: `${marketplace}/health`,
    service: connector,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    feature: "marketplace_offers",
    summary:
      "Per principal: can it assume the role; per capability: does it work; a diagnosis with a stable code and the fix per onboarding path",
    params: TenantPath,
    problems: ["CONNECTOR_NOT_CONNECTED"],
    responses: { 200: HealthReport },
  }),
  defineRoute({
    id: "marketplace.products.list",
    method: "GET",
    path: `${marketplace}/products`,
    service: connector,
    auth: "tenant",
    minRole: "member",
    apiKey: "read",
    feature: "marketplace_offers",
    summary: "The seller account's SaaS products, a page at a time (`next_cursor`)",
    params: TenantPath,
    query: ProductsQuery,
    problems: ["CONNECTOR_NOT_CONNECTED", "CONNECTOR_ACCESS_DENIED", "INVALID_CURSOR"],
    responses: { 200: ProductList },
  }),
  defineRoute({
    id: "marketplace.connector_role.template",
    method: "GET",
    path: "/v1/marketplace/connector-role/template.json",
    service: connector,
    auth: "public",
    summary: "The current CloudFormation template of the connector role, as JSON (what the quick-create link deploys)",
    responses: { 200: z.record(z.string(), z.unknown()) },
  }),
] as const satisfies readonly RouteSpec[];

const privacy = "privacy-svc" as const;

export const privacyRoutes = [
  defineRoute({
    id: "users.me.export.create",
    method: "POST",
    path: "/v1/users/me/export",
    service: privacy,
    auth: "user",
    summary:
      "Start an export of your personal data (202 with Location; while one is queued or running, that one; " +
      "429 EXPORT_RATE_LIMITED within 24 hours of the last successful one)",
    problems: ["EXPORT_RATE_LIMITED"],
    responses: { 202: ExportStarted },
  }),
  defineRoute({
    id: "users.me.export.get",
    method: "GET",
    path: "/v1/users/me/export/{job_id}",
    service: privacy,
    auth: "user",
    summary:
      "An export job's status; while ready, a fresh short-lived download URL on every call " +
      "(410 EXPORT_EXPIRED from 7 days after the file was written)",
    params: ExportJobPath,
    problems: ["EXPORT_EXPIRED"],
    responses: { 200: ExportJob },
  }),
] as const satisfies readonly RouteSpec[];

const audit = "audit-svc" as const;

/**
 * audit-svc: the audit trail, read-only (issue 11). Neither route is part of the personal-data
 * export (interface.md 2.4).
 */
export const auditRoutes = [
  defineRoute({
    id: "audit_events.list",
    method: "GET",
    path: "/v1/tenants/{id}/audit-events",
    service: audit,
    auth: "tenant",
    minRole: "admin",
    // The issue asks for read-scoped keys, but a read key stands for a member (SCOPE_CEILING in
    // contracts/src/auth/tenant-access.ts) and the trail is for admins: a write-scoped key it is.
    apiKey: "write",
    summary:
      "The tenant's audit trail, newest first: who (by sub) did what to whom; filter by time range, type and actor; cursor pagination",
    params: TenantPath,
    query: TenantAuditQuery,
    problems: ["INVALID_CURSOR"],
    responses: { 200: AuditEventList },
  }),
  defineRoute({
    id: "users.me.audit_events.list",
    method: "GET",
    path: "/v1/users/me/audit-events",
    service: audit,
    auth: "user",
    summary: "The audit events where you were the target (any tenant), newest first; filter by time range and type",
    query: MyAuditQuery,
    problems: ["INVALID_CURSOR"],
    responses: { 200: AuditEventList },
  }),
] as const satisfies readonly RouteSpec[];

/** The whole public surface. Other services add their arrays here. */
export const routes: readonly RouteSpec[] = [
  ...identityRoutes,
  ...partnerRoutes,
  ...oauthRoutes,
  ...connectorRoutes,
  ...offersRoutes,
  ...privacyRoutes,
  ...auditRoutes,
];

/** Looks a route up by id, for tests and tools that name routes. */
export const routeById = (id: string): RouteSpec | undefined => routes.find((r) => r.id === id);
