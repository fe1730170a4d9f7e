import { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from "./identity/api-keys.ts";
import { Jwks, RefreshRequest, SignInRequest, SignUpRequest, SignUpResponse, TokenResponse } from "./identity/auth.ts";
import { ApiKeyPath, MemberPath, TenantPath } from "./identity/common.ts";
import { AddMemberRequest, ChangeMemberRoleRequest, Member, MemberList } from "./identity/members.ts";
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
  NotificationPreferences,
  Profile,
  UpdateNotificationPreferencesRequest,
  UpdateProfileRequest,
} from "./identity/users.ts";
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
  defineRoute({ id: "auth.signup", method: "POST", path: "/v1/auth/signup", service: identity, auth: "public",
    summary: "Create an account with e-mail and password", body: SignUpRequest, responses: { 201: SignUpResponse } }),
  defineRoute({ id: "auth.signin", method: "POST", path: "/v1/auth/signin", service: identity, auth: "public",
    summary: "Sign in: an access token and a refresh token", body: SignInRequest, responses: { 200: TokenResponse } }),
  defineRoute({ id: "auth.refresh", method: "POST", path: "/v1/auth/refresh", service: identity, auth: "public",
    summary: "Trade a refresh token for new tokens (the old refresh token is spent)", body: RefreshRequest,
    responses: { 200: TokenResponse } }),
  defineRoute({ id: "auth.signout", method: "POST", path: "/v1/auth/signout", service: identity, auth: "user",
    summary: "End the current session (its refresh tokens stop working)", responses: { 204: null } }),
  defineRoute({ id: "auth.jwks", method: "GET", path: "/.well-known/jwks.json", service: identity, auth: "public",
    summary: "The public keys access tokens are signed with", responses: { 200: Jwks } }),
  // the signed-in user
  defineRoute({ id: "users.me.get", method: "GET", path: "/v1/users/me", service: identity, auth: "user",
    summary: "Your profile", responses: { 200: Profile } }),
  defineRoute({ id: "users.me.update", method: "PATCH", path: "/v1/users/me", service: identity, auth: "user",
    summary: "Change your name or picture", body: UpdateProfileRequest, responses: { 200: Profile } }),
  defineRoute({ id: "users.me.delete", method: "DELETE", path: "/v1/users/me", service: identity, auth: "user",
    summary: "Delete your account (409 OWNS_ACTIVE_TENANTS while you own a tenant)", responses: { 200: AccountDeleted } }),
  defineRoute({ id: "users.me.notification_preferences.get", method: "GET", path: "/v1/users/me/notification-preferences",
    service: identity, auth: "user", summary: "Your notification preferences", responses: { 200: NotificationPreferences } }),
  defineRoute({ id: "users.me.notification_preferences.update", method: "PUT", path: "/v1/users/me/notification-preferences",
    service: identity, auth: "user", summary: "Change notification preferences (omitted keys keep their value)",
    body: UpdateNotificationPreferencesRequest, responses: { 200: NotificationPreferences } }),
  // tenants
  defineRoute({ id: "tenants.create", method: "POST", path: "/v1/tenants", service: identity, auth: "user",
    summary: "Create a tenant; you become its owner", body: CreateTenantRequest, responses: { 201: Tenant } }),
  defineRoute({ id: "tenants.list", method: "GET", path: "/v1/tenants", service: identity, auth: "user",
    summary: "The tenants you are a member of", responses: { 200: TenantList } }),
  defineRoute({ id: "tenants.get", method: "GET", path: "/v1/tenants/{id}", service: identity, auth: "tenant",
    minRole: "member", apiKey: "read", summary: "A tenant", params: TenantPath, responses: { 200: Tenant } }),
  defineRoute({ id: "tenants.rename", method: "PATCH", path: "/v1/tenants/{id}", service: identity, auth: "tenant",
    minRole: "admin", summary: "Rename a tenant", params: TenantPath, body: RenameTenantRequest, responses: { 200: Tenant } }),
  defineRoute({ id: "tenants.delete", method: "DELETE", path: "/v1/tenants/{id}", service: identity, auth: "tenant",
    minRole: "owner", summary: "Soft-delete a tenant (owner only)", params: TenantPath, responses: { 204: null } }),
  defineRoute({ id: "tenants.ownership_transfer", method: "POST", path: "/v1/tenants/{id}/ownership-transfer",
    service: identity, auth: "tenant", minRole: "owner", summary: "Make another member the owner; you become an admin",
    params: TenantPath, body: OwnershipTransferRequest, responses: { 200: Tenant } }),
  // members
  defineRoute({ id: "members.list", method: "GET", path: "/v1/tenants/{id}/members", service: identity, auth: "tenant",
    minRole: "member", apiKey: "read", summary: "The tenant's members", params: TenantPath, responses: { 200: MemberList } }),
  defineRoute({ id: "members.add", method: "POST", path: "/v1/tenants/{id}/members", service: identity, auth: "tenant",
    minRole: "admin", summary: "Add an existing user by e-mail", params: TenantPath, body: AddMemberRequest,
    responses: { 201: Member } }),
  defineRoute({ id: "members.update", method: "PATCH", path: "/v1/tenants/{id}/members/{sub}", service: identity,
    auth: "tenant", minRole: "admin", summary: "Change a member's role", params: MemberPath, body: ChangeMemberRoleRequest,
    responses: { 200: Member } }),
  defineRoute({ id: "members.remove", method: "DELETE", path: "/v1/tenants/{id}/members/{sub}", service: identity,
    auth: "tenant", minRole: "admin", summary: "Remove a member (not the owner); API keys they created are revoked",
    params: MemberPath, responses: { 204: null } }),
  // feature flags
  defineRoute({ id: "features.get", method: "GET", path: "/v1/tenants/{id}/features", service: identity, auth: "tenant",
    minRole: "member", apiKey: "read", summary: "The tenant's feature flags", params: TenantPath,
    responses: { 200: FeatureFlags } }),
  defineRoute({ id: "features.update", method: "PUT", path: "/v1/tenants/{id}/features", service: identity, auth: "tenant",
    minRole: "admin", summary: "Turn feature flags on or off", params: TenantPath, body: UpdateFeatureFlagsRequest,
    responses: { 200: FeatureFlags } }),
  // API keys
  defineRoute({ id: "api_keys.list", method: "GET", path: "/v1/tenants/{id}/api-keys", service: identity, auth: "tenant",
    minRole: "admin", summary: "The tenant's API keys (never their secrets)", params: TenantPath,
    responses: { 200: ApiKeyList } }),
  defineRoute({ id: "api_keys.create", method: "POST", path: "/v1/tenants/{id}/api-keys", service: identity,
    auth: "tenant", minRole: "admin", summary: "Create an API key; the secret is shown once", params: TenantPath,
    body: CreateApiKeyRequest, responses: { 201: CreatedApiKey } }),
  defineRoute({ id: "api_keys.revoke", method: "DELETE", path: "/v1/tenants/{id}/api-keys/{key_id}", service: identity,
    auth: "tenant", minRole: "admin", summary: "Revoke an API key", params: ApiKeyPath, responses: { 204: null } }),
] as const satisfies readonly RouteSpec[];

/** The whole public surface. Other services add their arrays here. */
export const routes: readonly RouteSpec[] = [...identityRoutes];

/** Looks a route up by id, for tests and tools that name routes. */
export const routeById = (id: string): RouteSpec | undefined => routes.find((r) => r.id === id);
