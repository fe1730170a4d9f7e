import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ConnectorLookup } from "@flowstate/shared/marketplace/connector-lookup";
import { connectorNotConnected } from "@flowstate/shared/marketplace/connector-problems";
import type { Principal } from "@flowstate/shared/marketplace/principals";
import type { SellerClients, SellerSessions } from "@flowstate/shared/marketplace/seller-sessions";

export type { Principal, SellerClients };

/** Where a tenant's connector (role ARN, external ID) comes from (connector-svc's lookup, or a test's). */
export type ConnectorDirectory = Pick<ConnectorLookup, "get" | "forget" | "connected">;

/** A connected tenant's Marketplace clients for a principal; a DomainError when not connected. */
export interface SellerAccess {
  withClients<T>(
    tenantId: string,
    principal: Principal,
    fn: (clients: SellerClients) => Promise<T>,
    options?: {
      /**
       * Before answering "not connected", ask connector-svc again past this process's cache. For
       * the background workers, which act on that answer durably (a change set left alone, the
       * agreement watch dropped): the cached answer may predate a reconnect whose event another
       * replica consumed, and only a further ConnectorConnected would undo them.
       */
      recheckAbsent?: boolean;
    },
  ): Promise<T>;
  /** Drops the tenant's connector and cached sessions (disconnect, TenantSoftDeleted). */
  drop(tenantId: string): void;
  /** Every connected tenant's id (the agreement watch's backfill); an Error when the directory does not answer. */
  connectedTenants(): Promise<string[]>;
}

const lookupFailed = (cause: unknown) =>
  new DomainError("unavailable", "UPSTREAM_UNAVAILABLE", "the connector service did not answer; retry shortly", {
    retryAfter: 2,
    cause,
  });

/**
 * The seller-session module (shared/src/marketplace/seller-sessions.ts: cached AssumeRole per
 * tenant and principal, renewed on expiry, the SDK's retries with jitter) fed by the connector
 * lookup (shared/src/marketplace/connector-lookup.ts: connector-svc's internal route, cached a
 * few seconds). Not connected → 409 CONNECTOR_NOT_CONNECTED; connector-svc down → 503.
 */
export function sellerAccess(sessions: SellerSessions, directory: ConnectorDirectory): SellerAccess {
  return {
    async withClients(tenantId, principal, fn, options = {}) {
      const lookup = () =>
        directory.get(tenantId).catch((err: unknown) => {
          throw lookupFailed(err);
        });
      let connector = await lookup();
      if (!connector && options.recheckAbsent) {
        directory.forget(tenantId);
        connector = await lookup();
      }
      if (!connector) throw connectorNotConnected();
      return sessions.withClients(connector, principal, fn);
    },
    drop(tenantId) {
      directory.forget(tenantId);
      sessions.drop(tenantId);
    },
    connectedTenants: () => directory.connected(),
  };
}
