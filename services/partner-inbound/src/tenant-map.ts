import { partnerBusShard } from "@flowstate/shared/partner/ingest-bus";

/**
 * How long a disconnected account is remembered as gone: its late events are dropped rather than
 * retried. Two days: the us-east-1 queue and its DLQ keep a message one day, so no event of the
 * account can arrive later than that (a redrive from the DLQ included).
 */
export const GONE_FOR_MS = 2 * 24 * 3600_000;

/**
 * Which connected tenant a seller account belongs to: partner-inbound's only state, in memory.
 * Loaded from connector-svc at boot and merged with its list on a timer, kept current in between
 * by ConnectorConnected and ConnectorDisconnected. `onChange` hears the shards whose admitted
 * accounts changed.
 *
 * Three answers for an account (`lookup`): a tenant (publish), `gone` (a tenant disconnected or
 * deleted it: drop its late events, which would otherwise re-create the tenant's rows downstream),
 * or unknown (perhaps a tenant connected a moment ago whose event has not arrived: leave the message
 * for a later receive, and the DLQ after that, rather than lose it).
 */
export class TenantMap {
  readonly #byAccount = new Map<string, string>();
  /** Disconnected accounts → when they were seen to go. */
  readonly #gone = new Map<string, number>();
  /** Tenants a connector event changed → the change's number (`epoch`), for `merge`. */
  readonly #touched = new Map<string, number>();
  #epoch = 0;
  readonly #shards: number;
  readonly #onChange: (shards: Set<number>) => void;
  readonly #now: () => number;

  constructor(shards: number, onChange: (shards: Set<number>) => void = () => {}, now: () => number = Date.now) {
    this.#shards = shards;
    this.#onChange = onChange;
    this.#now = now;
  }

  tenantOf(accountId: string): string | undefined {
    return this.#byAccount.get(accountId);
  }

  lookup(accountId: string): { tenant: string } | "gone" | "unknown" {
    const tenant = this.#byAccount.get(accountId);
    if (tenant) return { tenant };
    return this.#gone.has(accountId) ? "gone" : "unknown";
  }

  get size(): number {
    return this.#byAccount.size;
  }

  /** The number of connector events applied so far: take it before fetching a list to `merge`. */
  get epoch(): number {
    return this.#epoch;
  }

  connect(tenantId: string, accountId: string): void {
    this.#touched.set(tenantId, ++this.#epoch);
    const changed = this.#removeTenant(tenantId);
    this.#byAccount.set(accountId, tenantId);
    this.#gone.delete(accountId);
    changed.add(partnerBusShard(accountId, this.#shards));
    this.#onChange(changed);
  }

  disconnect(tenantId: string): void {
    this.#touched.set(tenantId, ++this.#epoch);
    const changed = this.#removeTenant(tenantId);
    if (changed.size) this.#onChange(changed);
  }

  /**
   * Takes connector-svc's list, fetched after `since` (the `epoch` read before the fetch), as the
   * truth for every tenant no connector event changed since then; a tenant an event connected or
   * disconnected meanwhile keeps what the event said (the list may predate it: replacing the map
   * wholesale dropped a tenant connected during the fetch, and its events, until the next refresh).
   * An account the list no longer has is remembered as gone. Reports every shard whose accounts differ.
   */
  merge(connectors: readonly { tenant_id: string; account_id: string }[], since: number): void {
    const recent = new Set([...this.#touched].filter(([, epoch]) => epoch > since).map(([tenant]) => tenant));
    const next = new Map<string, string>();
    for (const c of connectors) if (!recent.has(c.tenant_id)) next.set(c.account_id, c.tenant_id);
    for (const [account, tenant] of this.#byAccount) if (recent.has(tenant)) next.set(account, tenant);
    const changed = new Set<number>();
    for (const account of new Set([...this.#byAccount.keys(), ...next.keys()])) {
      if (this.#byAccount.get(account) === next.get(account)) continue;
      changed.add(partnerBusShard(account, this.#shards));
      if (!next.has(account)) this.#gone.set(account, this.#now());
    }
    this.#byAccount.clear();
    for (const [account, tenant] of next) {
      this.#byAccount.set(account, tenant);
      this.#gone.delete(account);
    }
    for (const [tenant, epoch] of this.#touched) if (epoch <= since) this.#touched.delete(tenant);
    const expired = this.#now() - GONE_FOR_MS;
    for (const [account, at] of this.#gone) if (at < expired) this.#gone.delete(account);
    if (changed.size) this.#onChange(changed);
  }

  #removeTenant(tenantId: string): Set<number> {
    const changed = new Set<number>();
    for (const [account, tenant] of this.#byAccount) {
      if (tenant !== tenantId) continue;
      this.#byAccount.delete(account);
      this.#gone.set(account, this.#now());
      changed.add(partnerBusShard(account, this.#shards));
    }
    return changed;
  }
}
