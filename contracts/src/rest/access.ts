import type { ServiceName } from "./route.ts";

/**
 * Who may call a public route, as the registry spreads it into `defineRoute`: the owning service,
 * the auth kind and, on tenant routes, the lowest role and the API key scope. A read key stands for
 * a member and a write key for an admin (SCOPE_CEILING in contracts/src/auth/tenant-access.ts), so
 * `read` and `write` are the roles a key can reach; `admin` and `owner` take tokens only.
 *
 * @example
 * const { user, read } = accessOf("partner-svc");
 * defineRoute({ id: "partner.opportunities.list", method: "GET", path, ...read, ... });
 */
export const accessOf = <const S extends ServiceName>(service: S) =>
  ({
    /** No credential. */
    public: { service, auth: "public" },
    /** Any signed-in user, with an access token. */
    user: { service, auth: "user" },
    /** Tenant members, and API keys of the read scope. */
    read: { service, auth: "tenant", minRole: "member", apiKey: "read" },
    /** Tenant admins, with a token. */
    admin: { service, auth: "tenant", minRole: "admin" },
    /** Tenant admins, and API keys of the write scope. */
    write: { service, auth: "tenant", minRole: "admin", apiKey: "write" },
    /** The tenant's owner, with a token. */
    owner: { service, auth: "tenant", minRole: "owner" },
  }) as const;

/** Where a tenant's marketplace routes live (connector-svc's connector, offers-svc's offers). */
export const MARKETPLACE = "/v1/tenants/{id}/integrations/marketplace";

/**
 * `accessOf` for the marketplace routes of a tenant: each needs the tenant's `marketplace_offers`
 * flag, which the gateway enforces (403 FEATURE_DISABLED) before the call reaches the service.
 */
export const marketplaceAccessOf = <const S extends ServiceName>(service: S) => {
  const { read, write } = accessOf(service);
  return {
    read: { ...read, feature: "marketplace_offers" },
    write: { ...write, feature: "marketplace_offers" },
  } as const;
};

/** What any call into the seller's AWS account can answer: no connector, or its role refused. */
export const CONNECTOR_PROBLEMS = ["CONNECTOR_NOT_CONNECTED", "CONNECTOR_ACCESS_DENIED"] as const;
