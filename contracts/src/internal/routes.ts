import { z } from "zod";
import { SessionId, Sub, TenantId } from "../ids.ts";
import { FeatureFlags } from "../rest/identity/tenants.ts";
import type { RouteShape } from "../rest/route.ts";
import { ConnectedAccounts, SellerConnectorRecord } from "./connector.ts";
import { ApiKeyState, ApiKeyVerifyRequest, MembershipState, SessionState } from "./identity.ts";
import { categoriesOf, NDJSON, PartLine } from "./personal-data.ts";

/**
 * Routes services serve to other platform components only (under `/internal/v1`, never routed by
 * the gateway, never in the OpenAPI document). Declared like the public ones so a service mounts
 * them the same way (`mountRoute`) and the route-contract test covers them too.
 */
export const defineInternalRoute = <
  const R extends RouteShape & { caller: "edge-gateway" | "mcp-gateway" | "offers-svc" | "platform" | "privacy-svc" },
>(
  route: R,
): R => route;

const identity = "identity-svc" as const;

export const internalIdentityRoutes = [
  defineInternalRoute({
    id: "internal.sessions.get",
    method: "GET",
    path: "/internal/v1/sessions/{sid}",
    service: identity,
    caller: "edge-gateway",
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
    caller: "edge-gateway",
    body: ApiKeyVerifyRequest,
    problems: ["NOT_FOUND"],
    responses: { 200: ApiKeyState },
  }),
  defineInternalRoute({
    id: "internal.memberships.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/members/{sub}",
    service: identity,
    caller: "edge-gateway",
    params: z.object({ id: TenantId, sub: Sub }),
    responses: { 200: MembershipState },
  }),
  defineInternalRoute({
    id: "internal.features.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/features",
    service: identity,
    caller: "edge-gateway",
    params: z.object({ id: TenantId }),
    problems: ["NOT_FOUND"],
    responses: { 200: FeatureFlags },
  }),
  defineInternalRoute({
    id: "internal.personal_data.get",
    method: "GET",
    path: "/internal/v1/users/{sub}/personal-data/{category}",
    service: identity,
    caller: "privacy-svc",
    params: z.object({ sub: Sub, category: z.enum(categoriesOf("identity-svc")) }),
    problems: ["FORBIDDEN"],
    // NDJSON: one PartLine per line, `{"record": …}` then `{"end": {"count": n}}` (personal-data.ts).
    responses: { 200: PartLine },
    streams: NDJSON,
  }),
] as const;

const connector = "connector-svc" as const;

export const internalConnectorRoutes = [
  defineInternalRoute({
    id: "internal.seller_connector.get",
    method: "GET",
    path: "/internal/v1/tenants/{id}/marketplace-connector",
    service: connector,
    // offers-svc and mcp-gateway, each with its own `service` identity (connector-svc checks which).
    caller: "platform",
    params: z.object({ id: TenantId }),
    problems: ["NOT_FOUND"],
    responses: { 200: SellerConnectorRecord },
  }),
  defineInternalRoute({
    id: "internal.marketplace_connectors.list",
    method: "GET",
    path: "/internal/v1/marketplace-connectors",
    service: connector,
    // partner-inbound only (connector-svc checks it): account ids for its account → tenant map.
    caller: "platform",
    responses: { 200: ConnectedAccounts },
  }),
] as const;

/** Every internal route; a service's route-contract test compares its app with these and the public registry. */
export const internalRoutes: readonly RouteShape[] = [...internalIdentityRoutes, ...internalConnectorRoutes];
