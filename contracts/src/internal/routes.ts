import { z } from "zod";
import { SessionId, Sub, TenantId } from "../ids.ts";
import { FeatureFlags } from "../rest/identity/tenants.ts";
import type { RouteShape } from "../rest/route.ts";
import type { FlowstateServiceName } from "../services/catalog.ts";
import { ConnectedAccounts, SellerConnectorRecord } from "./connector.ts";
import { DoorLease, DoorLeaseRequest, DoorPath } from "./doors.ts";
import {
  ApiKeyState,
  ApiKeyVerifyRequest,
  CredentialCheckRequest,
  MailTarget,
  MembershipState,
  SessionState,
  TenantAdmins,
} from "./identity.ts";
import { categoriesOf, NDJSON, PartLine } from "./personal-data.ts";

/** An internal route: its shape and the services that may call it (the seam refuses any other with 403). */
export interface InternalRouteShape extends RouteShape {
  /**
   * The services whose own `service` identity may call this route; the seam (shared/src/seam/)
   * answers 403 FORBIDDEN to any other service and 401 to anything that is not a service.
   */
  callers: readonly FlowstateServiceName[];
}

/**
 * Routes services serve to other platform components only (under `/internal/v1`, never routed by
 * the gateway, never in the OpenAPI document). Declared like the public ones so a service mounts
 * them the same way (`mountRoute`) and the route-contract test covers them too.
 */
export const defineInternalRoute = <const R extends InternalRouteShape>(route: R): R => route;

// The gateways' own lookups: mcp-gateway runs the edge pipeline (and signs its own session checks).
const doors = ["edge-gateway", "mcp-gateway"] as const;

const identity = "identity-svc" as const;

export const internalIdentityRoutes = [
  defineInternalRoute({
    id: "internal.sessions.get",
    method: "GET",
    path: "/internal/v1/sessions/{sid}",
    service: identity,
    callers: doors,
    params: z.object({ sid: SessionId }),
    query: z.object({ iat: z.coerce.number().int().nonnegative().optional() }),
    responses: { 200: SessionState },
  }),
  defineInternalRoute({
    id: "internal.api_keys.verify",
    // POST, not GET: the key travels in the body, never in a URL that proxies and logs keep.
    method: "POST",
    path: "/internal/v1/api-keys/verify",
    service: identity,
    callers: doors,
    body: ApiKeyVerifyRequest,
    problems: ["NOT_FOUND"],
    responses: { 200: ApiKeyState },
  }),
  defineInternalRoute({
    id: "internal.memberships.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/members/{sub}",
    service: identity,
    callers: doors,
    params: z.object({ id: TenantId, sub: Sub }),
    responses: { 200: MembershipState },
  }),
  defineInternalRoute({
    id: "internal.features.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/features",
    service: identity,
    callers: doors,
    params: z.object({ id: TenantId }),
    problems: ["NOT_FOUND"],
    responses: { 200: FeatureFlags },
  }),
  defineInternalRoute({
    id: "internal.doors.renew",
    // A door instance's lease (ADR 0011): identity-svc pushes invalidations to every live one.
    method: "PUT",
    path: "/internal/v1/doors/{instance}",
    service: identity,
    callers: doors,
    params: DoorPath,
    body: DoorLeaseRequest,
    problems: ["FORBIDDEN"],
    responses: { 200: DoorLease },
  }),
  defineInternalRoute({
    id: "internal.doors.leave",
    // Deregistration at shutdown: pushes stop waiting for an instance that is going away.
    method: "DELETE",
    path: "/internal/v1/doors/{instance}",
    service: identity,
    callers: doors,
    params: DoorPath,
    problems: ["FORBIDDEN"],
    responses: { 204: null },
  }),
  defineInternalRoute({
    id: "internal.personal_data.get",
    method: "GET",
    path: "/internal/v1/users/{sub}/personal-data/{category}",
    service: identity,
    callers: ["privacy-svc"],
    params: z.object({ sub: Sub, category: z.enum(categoriesOf("identity-svc")) }),
    problems: ["FORBIDDEN", "ACCOUNT_GONE"],
    // NDJSON: one PartLine per line, `{"record": …}` then `{"end": {"count": n}}` (personal-data.ts).
    responses: { 200: PartLine },
    streams: NDJSON,
  }),
  defineInternalRoute({
    id: "internal.credentials.check",
    // POST: the identity travels in the (signed) body.
    method: "POST",
    path: "/internal/v1/credentials/check",
    service: identity,
    // Every service that writes on behalf of a caller (the seam's `call.transaction`).
    callers: ["connector-svc", "notify-svc", "offers-svc", "privacy-svc"],
    body: CredentialCheckRequest,
    problems: ["SESSION_REVOKED", "INVALID_API_KEY"],
    responses: { 204: null },
  }),
  defineInternalRoute({
    id: "internal.tenant_admins.list",
    method: "GET",
    path: "/internal/v1/tenants/{id}/admins",
    service: identity,
    // notify-svc's e-mail when an endpoint of the tenant is disabled (issue 25); nobody else.
    callers: ["notify-svc"],
    params: z.object({ id: TenantId }),
    responses: { 200: TenantAdmins },
  }),
  defineInternalRoute({
    id: "internal.users.mail_target.get",
    method: "GET",
    path: "/internal/v1/users/{sub}/mail-target",
    service: identity,
    // notify-svc's per-person e-mail (an offer change's result to whoever asked for it); nobody else.
    callers: ["notify-svc"],
    params: z.object({ sub: Sub }),
    problems: ["ACCOUNT_GONE"],
    responses: { 200: MailTarget },
  }),
] as const;

const connector = "connector-svc" as const;

export const internalConnectorRoutes = [
  defineInternalRoute({
    id: "internal.seller_connector.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/marketplace-connector",
    service: connector,
    // The external ID is a secret of the tenant's: only the two that assume its role read it.
    callers: ["offers-svc", "mcp-gateway"],
    params: z.object({ id: TenantId }),
    problems: ["NOT_FOUND"],
    responses: { 200: SellerConnectorRecord },
  }),
  defineInternalRoute({
    id: "internal.marketplace_connectors.list",
    method: "GET",
    path: "/internal/v1/marketplace-connectors",
    service: connector,
    // Ids only: partner-inbound's account → tenant map (it may read nothing else), and offers-svc's
    // agreement-watch backfill (tenants connected before it listened to ConnectorConnected).
    callers: ["partner-inbound", "offers-svc"],
    responses: { 200: ConnectedAccounts },
  }),
] as const;

/** Every internal route; a service's route-contract test compares its app with these and the public registry. */
export const internalRoutes: readonly InternalRouteShape[] = [...internalIdentityRoutes, ...internalConnectorRoutes];
