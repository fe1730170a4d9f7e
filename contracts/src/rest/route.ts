import type { z } from "zod";
import type { TenantRole } from "../ids.ts";

/**
 * One public REST route, declared once. The registry of these (routes.ts) drives the gateway's
 * routing and authorization, the OpenAPI document, and the authorization-matrix tests, so a route
 * cannot exist without being documented and tested.
 */
export interface RouteSpec {
  /** Stable id, e.g. `tenants.get`. */
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style template, e.g. `/v1/tenants/{id}/members/{sub}`. */
  path: string;
  /** The service that owns the route. */
  service: "identity-svc" | "connector-svc" | "offers-svc" | "privacy-svc" | "audit-svc";
  /**
   * public: no credential; user: any signed-in user (access token);
   * tenant: `/v1/tenants/{id}/**`, membership checked by the gateway.
   */
  auth: "public" | "user" | "tenant";
  /** Lowest tenant role allowed (tenant routes). */
  minRole?: TenantRole;
  /** Whether a per-tenant API key may call it, and the scope it needs; false (default) means tokens only. */
  apiKey?: "read" | "write" | false;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status → body schema (null for an empty body). Problem responses are implied. */
  responses: Record<number, z.ZodType | null>;
}

export const defineRoute = <const R extends RouteSpec>(route: R): R => route;
