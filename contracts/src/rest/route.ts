import type { z } from "zod";
import type { ProblemCode } from "../errors/codes.ts";
import type { TenantRole } from "../ids.ts";
import type { ServiceCatalog } from "../services/catalog.ts";
import type { FeatureFlags } from "./identity/tenants.ts";

/**
 * The services that may own a route: the catalog's entries of kind `service` (no door, no sandbox),
 * so a new catalog entry can name itself in its routes with no other list to edit. Which of them
 * own a public route, and so are the gateway's upstreams, the registry says (`routedServices`,
 * routes.ts).
 */
export type ServiceName = {
  [S in keyof ServiceCatalog]: ServiceCatalog[S]["kind"] extends "service" ? S : never;
}[keyof ServiceCatalog];

/**
 * What a service needs to mount a handler (`mountRoute`, shared/src/http/mount-route.ts): method,
 * path and the schemas of what comes in and goes out. Public routes add the gateway's fields
 * (RouteSpec); internal ones (`contracts/src/internal/routes.ts`) only say who calls them.
 */
export interface RouteShape {
  /** Stable id, e.g. `tenants.get`. */
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style template, e.g. `/v1/tenants/{id}/members/{sub}`. */
  path: string;
  /** The service that owns the route. */
  service: ServiceName;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status → body schema (null for an empty body). */
  responses: Record<number, z.ZodType | null>;
  /**
   * The problem codes this route answers beyond those its shape implies (validation, auth kind,
   * rate limits; see `routeProblems` in problems.ts), e.g. `["LAST_OWNER"]`. Tests fail when a
   * handler throws a code its route does not declare.
   */
  problems?: readonly ProblemCode[];
  /**
   * The 200 answer is streamed in this media type (e.g. `application/x-ndjson`, one line per item)
   * instead of one JSON body; the handler returns `{ status: 200, stream }`. What each line holds is
   * the route's own documentation (the personal-data routes: contracts/src/internal/personal-data.ts).
   */
  streams?: string;
}

/**
 * One public REST route, declared once. The registry of these (routes.ts) drives the gateway's
 * routing and authorization, the OpenAPI document, and the authorization-matrix tests, so a route
 * cannot exist without being documented and tested.
 */
export interface RouteSpec extends RouteShape {
  /**
   * public: no credential; user: any signed-in user (access token);
   * tenant: `/v1/tenants/{id}/**`, membership checked by the gateway.
   */
  auth: "public" | "user" | "tenant";
  /** Lowest tenant role allowed (tenant routes). */
  minRole?: TenantRole;
  /** Whether a per-tenant API key may call it, and the scope it needs; false (default) means tokens only. */
  apiKey?: "read" | "write" | false;
  /**
   * A tenant feature flag that must be on (tenant routes): the gateway answers 403
   * FEATURE_DISABLED while it is off, before the call reaches the service.
   */
  feature?: keyof FeatureFlags;
  summary: string;
  /**
   * Media types other than JSON: `form` = the body is application/x-www-form-urlencoded (OAuth
   * endpoints, HTML forms); `html` = the success answer is a server-rendered page (text/html).
   */
  media?: { body?: "form"; response?: "html" };
  /**
   * The route honours an `Idempotency-Key` header (contracts/src/rest/idempotency.ts); `withoutKey`
   * says what a retry without one does, which the OpenAPI document tells the reader.
   */
  idempotencyKey?: { withoutKey: string };
  /**
   * `oauth`: refusals are RFC 6749 section 5.2 error objects (`error`, `error_description`, which
   * OAuth clients parse) carrying the problem members (`code`, `request_id`, …) beside them.
   */
  errors?: "oauth";
}

export const defineRoute = <const R extends RouteSpec>(route: R): R => route;

/**
 * The entry `id` of a registry list, typed as exactly that entry (its schemas included), for
 * `mountRoute`. Throws at boot when the id is not in the list.
 *
 * @example
 * const spec = routeIn(identityRoutes, "tenants.get"); // spec.params is TenantPath
 */
export function routeIn<const L extends readonly RouteShape[], I extends L[number]["id"]>(
  list: L,
  id: I,
): Extract<L[number], { id: I }> {
  const route = list.find((r) => r.id === id);
  if (!route) throw new Error(`no route ${id} in the registry`);
  return route as Extract<L[number], { id: I }>;
}
