import { serviceNames } from "../services/catalog.ts";
import { auditRoutes } from "./audit/routes.ts";
import { connectorRoutes } from "./connector/routes.ts";
import { oauthRoutes } from "./identity/oauth-routes.ts";
import { identityRoutes } from "./identity/routes.ts";
import { notifyRoutes } from "./notify/routes.ts";
import { offersRoutes } from "./offers/routes.ts";
import { partnerRoutes } from "./partner/routes.ts";
import { privacyRoutes } from "./privacy/routes.ts";
import type { RouteSpec } from "./route.ts";

// Each service's routes live beside its schemas (`./<service>/routes.ts`); they are named here too
// so that callers keep one import path for every list.
export {
  auditRoutes,
  connectorRoutes,
  identityRoutes,
  notifyRoutes,
  oauthRoutes,
  offersRoutes,
  partnerRoutes,
  privacyRoutes,
};

/**
 * Every public REST route, once. The gateway routes, authorizes (auth kind, minRole, API key scope)
 * and documents (OpenAPI) from this list, and the authorization-matrix tests enumerate it, so a
 * route that is not here does not exist. A new service declares its list in `./<service>/routes.ts`
 * (who may call each route: `accessOf` in access.ts) and adds it below; the order is the document's.
 */
const everyRoute = [
  ...identityRoutes,
  ...partnerRoutes,
  ...oauthRoutes,
  ...connectorRoutes,
  ...offersRoutes,
  ...privacyRoutes,
  ...auditRoutes,
  ...notifyRoutes,
] as const;
export const routes: readonly RouteSpec[] = everyRoute;

/** A service that owns a public route (`routedServices`). */
export type RoutedServiceName = (typeof everyRoute)[number]["service"];

/**
 * The services that own a public route, in the catalog's order: the edge gateway's upstreams, one
 * URL variable (`urlVariable`) and one connection pool each. Derived, so a service whose routes
 * are added above is reachable through the gateway with no other list to edit.
 */
export const routedServices: readonly RoutedServiceName[] = serviceNames.filter((name): name is RoutedServiceName =>
  routes.some((r) => r.service === name),
);

/** Looks a route up by id, for tests and tools that name routes. */
export const routeById = (id: string): RouteSpec | undefined => routes.find((r) => r.id === id);
