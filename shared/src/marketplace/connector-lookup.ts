import {
  ConnectedAccounts,
  connectedAccountsPath,
  SellerConnectorRecord,
  sellerConnectorPath,
} from "@flowstate/contracts/internal/connector";
import { bodyless, IDENTITY_HEADER, type RequestBinding } from "../auth/identity-assertion.ts";
import { LruCache } from "../cache/lru.ts";
import { internalCall } from "../http/internal-call.ts";
import type { SellerConnector } from "./seller-sessions.ts";

export interface ConnectorLookupOptions {
  /** connector-svc's base URL (CONNECTOR_URL). */
  baseUrl: string;
  /**
   * Signs the caller's own `service` identity: `serviceSigner(keyring, "connector-svc")` (its pair's
   * key, ADR 0014) or, for a caller not moved to keys per caller yet, `internalSigner(secret, service)`.
   * connector-svc answers offers-svc and mcp-gateway only.
   */
  sign: (binding: RequestBinding) => string;
  /** How long an answer is reused (default 5 s); `forget` drops it earlier. */
  ttlMs?: number;
}

export interface ConnectorLookup {
  /** The tenant's connector (role ARN, external ID), or null when it is not connected. */
  get(tenantId: string): Promise<(SellerConnector & { accountId: string }) | null>;
  /** Drops the cached answer (ConnectorConnected, ConnectorDisconnected, TenantSoftDeleted). */
  forget(tenantId: string): void;
  /**
   * Every connected tenant's id (connector-svc's list route, ids only; offers-svc and
   * partner-inbound may call it): what a caller that learns connections from events missed before
   * it listened. Not cached; an Error when connector-svc does not answer.
   */
  connected(): Promise<string[]>;
}

/** A lookup that takes longer fails (503 to the caller) rather than holding its request open. */
const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * How offers-svc and mcp-gateway learn a tenant's connector: connector-svc's internal route, signed
 * with the caller's own `service` identity, over HTTP, never through a queue (ADR 0006). Answers
 * are kept for `ttlMs`, so a burst of calls for one tenant costs one lookup; a failed lookup is
 * an Error (the caller maps it to 503), never "not connected".
 *
 * @example
 * const connectors = connectorLookup({ baseUrl: config.CONNECTOR_URL, sign: serviceSigner(keyring, "connector-svc") });
 * const connector = await connectors.get(tenantId); // null → 409 CONNECTOR_NOT_CONNECTED
 * await sessions.withClients(connector, principalForChannel(channel), ({ catalog }) => …);
 */
export function connectorLookup(options: ConnectorLookupOptions): ConnectorLookup {
  const ttlMs = options.ttlMs ?? 5_000;
  const cache = new LruCache<{ value: Promise<(SellerConnector & { accountId: string }) | null> }>(10_000);
  const fetchOne = async (tenantId: string) => {
    const path = sellerConnectorPath(tenantId);
    const res = await internalCall(`${options.baseUrl}${path}`, {
      headers: {
        [IDENTITY_HEADER]: options.sign(bodyless("GET", path)),
        accept: "application/json",
      },
      timeoutMs: LOOKUP_TIMEOUT_MS,
    });
    if (res.status === 404) {
      await res.discard();
      return null;
    }
    if (res.status !== 200) {
      await res.discard();
      throw new Error(`connector-svc answered ${res.status} to the connector lookup`);
    }
    const record = SellerConnectorRecord.parse(await res.json());
    return { tenantId, roleArn: record.role_arn, externalId: record.external_id, accountId: record.account_id };
  };
  return {
    get(tenantId) {
      const hit = cache.get(tenantId);
      if (hit) return hit.value;
      const value = fetchOne(tenantId);
      const entry = { value };
      cache.set(tenantId, entry, Date.now() + ttlMs);
      value.catch(() => {
        if (cache.get(tenantId) === entry) cache.delete(tenantId);
      });
      return value;
    },
    forget(tenantId) {
      cache.delete(tenantId);
    },
    async connected() {
      const res = await internalCall(`${options.baseUrl}${connectedAccountsPath}`, {
        headers: {
          [IDENTITY_HEADER]: options.sign(bodyless("GET", connectedAccountsPath)),
          accept: "application/json",
        },
        timeoutMs: LOOKUP_TIMEOUT_MS,
      });
      if (res.status !== 200) {
        await res.discard();
        throw new Error(`connector-svc answered ${res.status} to the connected-tenants list`);
      }
      return ConnectedAccounts.parse(await res.json()).connectors.map((c) => c.tenant_id);
    },
  };
}
