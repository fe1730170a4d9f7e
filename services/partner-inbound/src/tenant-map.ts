import { partnerBusShard } from "@flowstate/shared/partner/ingest-bus";

/**
 * Which connected tenant a seller account belongs to: partner-inbound's only state, in memory.
 * Rebuilt from connector-svc at boot and on a timer, kept current in between by ConnectorConnected
 * and ConnectorDisconnected. `onChange` hears the shards whose admitted accounts changed.
 */
export class TenantMap {
  readonly #byAccount = new Map<string, string>();
  readonly #shards: number;
  readonly #onChange: (shards: Set<number>) => void;

  constructor(shards: number, onChange: (shards: Set<number>) => void = () => {}) {
    this.#shards = shards;
    this.#onChange = onChange;
  }

  tenantOf(accountId: string): string | undefined {
    return this.#byAccount.get(accountId);
  }

  get size(): number {
    return this.#byAccount.size;
  }

  /** The connected accounts that forward to one shard bus. */
  accountsOfShard(shard: number): string[] {
    return [...this.#byAccount.keys()].filter((a) => partnerBusShard(a, this.#shards) === shard);
  }

  connect(tenantId: string, accountId: string): void {
    const changed = this.#removeTenant(tenantId);
    this.#byAccount.set(accountId, tenantId);
    changed.add(partnerBusShard(accountId, this.#shards));
    this.#onChange(changed);
  }

  disconnect(tenantId: string): void {
    const changed = this.#removeTenant(tenantId);
    if (changed.size) this.#onChange(changed);
  }

  /** Replaces the whole map with connector-svc's list; reports every shard whose accounts differ. */
  replace(connectors: readonly { tenant_id: string; account_id: string }[]): void {
    const before = new Map(this.#byAccount);
    this.#byAccount.clear();
    for (const c of connectors) this.#byAccount.set(c.account_id, c.tenant_id);
    const changed = new Set<number>();
    for (const account of new Set([...before.keys(), ...this.#byAccount.keys()])) {
      if (before.get(account) !== this.#byAccount.get(account)) changed.add(partnerBusShard(account, this.#shards));
    }
    if (changed.size) this.#onChange(changed);
  }

  #removeTenant(tenantId: string): Set<number> {
    const changed = new Set<number>();
    for (const [account, tenant] of this.#byAccount) {
      if (tenant !== tenantId) continue;
      this.#byAccount.delete(account);
      changed.add(partnerBusShard(account, this.#shards));
    }
    return changed;
  }
}
