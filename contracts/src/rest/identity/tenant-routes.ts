import { accessOf } from "../access.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from "./api-keys.ts";
import { ApiKeyPath, MemberPath, TenantPath } from "./common.ts";
import { SentInvitation } from "./invitations.ts";
import { AddMemberRequest, ChangeMemberRoleRequest, Member, MemberList } from "./members.ts";
import {
  CreateTenantRequest,
  FeatureFlags,
  OwnershipTransferRequest,
  RenameTenantRequest,
  Tenant,
  TenantList,
  UpdateFeatureFlagsRequest,
} from "./tenants.ts";

/**
 * identity-svc's routes of a tenant: the tenant, its members, feature flags and API keys. Identity's
 * rules the registry cannot express (enforced by identity-svc): the owner cannot be removed or
 * demoted, an admin cannot change the owner, `owner` is given only by a transfer.
 */
const { user, read, admin, owner } = accessOf("identity-svc");

export const tenantRoutes = [
  // tenants
  defineRoute({
    id: "tenants.create",
    method: "POST",
    path: "/v1/tenants",
    ...user,
    summary: "Create a tenant; you become its owner",
    body: CreateTenantRequest,
    responses: { 201: Tenant },
  }),
  defineRoute({
    id: "tenants.list",
    method: "GET",
    path: "/v1/tenants",
    ...user,
    summary: "The tenants you are a member of",
    responses: { 200: TenantList },
  }),
  defineRoute({
    id: "tenants.get",
    method: "GET",
    path: "/v1/tenants/{id}",
    ...read,
    summary: "A tenant",
    params: TenantPath,
    responses: { 200: Tenant },
  }),
  defineRoute({
    id: "tenants.rename",
    method: "PATCH",
    path: "/v1/tenants/{id}",
    ...admin,
    summary: "Rename a tenant",
    params: TenantPath,
    body: RenameTenantRequest,
    responses: { 200: Tenant },
  }),
  defineRoute({
    id: "tenants.delete",
    method: "DELETE",
    path: "/v1/tenants/{id}",
    ...owner,
    summary: "Soft-delete a tenant (owner only)",
    params: TenantPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "tenants.ownership_transfer",
    method: "POST",
    path: "/v1/tenants/{id}/ownership-transfer",
    ...owner,
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
    ...read,
    summary: "The tenant's members",
    params: TenantPath,
    responses: { 200: MemberList },
  }),
  defineRoute({
    id: "members.add",
    method: "POST",
    path: "/v1/tenants/{id}/members",
    ...admin,
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
    ...admin,
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
    ...admin,
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
    ...read,
    summary: "The tenant's feature flags",
    params: TenantPath,
    responses: { 200: FeatureFlags },
  }),
  defineRoute({
    id: "features.update",
    method: "PUT",
    path: "/v1/tenants/{id}/features",
    ...admin,
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
    ...admin,
    summary: "The tenant's API keys (never their secrets)",
    params: TenantPath,
    responses: { 200: ApiKeyList },
  }),
  defineRoute({
    id: "api_keys.create",
    method: "POST",
    path: "/v1/tenants/{id}/api-keys",
    ...admin,
    summary: "Create an API key; the secret is shown once",
    params: TenantPath,
    body: CreateApiKeyRequest,
    responses: { 201: CreatedApiKey },
  }),
  defineRoute({
    id: "api_keys.revoke",
    method: "DELETE",
    path: "/v1/tenants/{id}/api-keys/{key_id}",
    ...admin,
    summary: "Revoke an API key",
    params: ApiKeyPath,
    responses: { 204: null },
  }),
] as const satisfies readonly RouteSpec[];
