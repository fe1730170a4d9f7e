import type { OffersDeps } from "../deps.ts";

/**
 * What this process knows about a tenant's seller account, forgotten: the connector record, the
 * assumed-role sessions of both principals, the cached seller currencies. Other replicas of
 * offers-svc (each queue message reaches one of them) stop using the old connector when their
 * directory entry expires (CONNECTOR_CACHE_SECONDS): the session cache is keyed by role ARN and
 * external ID, so a changed or removed connector is never used past that.
 */
export function forgetTenant(deps: Pick<OffersDeps, "sellers" | "currencies">, tenantId: string): void {
  deps.sellers.drop(tenantId);
  deps.currencies.forget(tenantId);
}
