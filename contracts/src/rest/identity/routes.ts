import type { RouteSpec } from "../route.ts";
import { accountRoutes } from "./account-routes.ts";
import { tenantRoutes } from "./tenant-routes.ts";

/**
 * identity-svc's routes, in the registry's order: an account's (account-routes.ts: sign-up, sign-in,
 * tokens, the signed-in user's own), then a tenant's (tenant-routes.ts: the tenant, its members,
 * feature flags and API keys).
 */
export const identityRoutes = [...accountRoutes, ...tenantRoutes] as const satisfies readonly RouteSpec[];
