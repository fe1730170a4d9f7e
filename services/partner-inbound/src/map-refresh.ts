import type { ConnectedAccounts } from "@flowstate/contracts/internal/connector";
import type { Logger } from "@flowstate/shared/log/logger";
import type { TenantMap } from "./tenant-map.ts";

/**
 * Keeps the account map loaded from connector-svc: tries every `retryMs` until the first list
 * arrives, then every `refreshMs`, merging each list (TenantMap.merge, with the epoch read before
 * the fetch, so a connector event that lands during it is not undone). `onLoaded` runs once, after
 * the first list: main.ts starts the partner pump there and not before, because with an empty map
 * every event would be of an unknown account (before issue 24 they were deleted: a connector-svc
 * outage at boot lost every event until it answered).
 *
 * @example
 * const refresher = keepMapLoaded({ map, fetch: () => fetchConnectedAccounts(url, sign), refreshMs: 300_000, logger, onLoaded: startPump });
 */
export function keepMapLoaded(o: {
  map: TenantMap;
  fetch: () => Promise<ConnectedAccounts["connectors"]>;
  refreshMs: number;
  retryMs?: number;
  logger: Logger;
  onLoaded: () => void;
}): { loaded(): boolean; stop(): void } {
  let loaded = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  async function refresh(): Promise<void> {
    try {
      const since = o.map.epoch;
      o.map.merge(await o.fetch(), since);
      if (!loaded) {
        loaded = true;
        o.logger.info({ accounts: o.map.size }, "account map loaded from connector-svc");
        if (!stopped) o.onLoaded();
      }
    } catch (err) {
      o.logger.warn(
        { err, loaded },
        loaded
          ? "connector-svc did not answer; the account map keeps its current entries"
          : "connector-svc did not answer; the partner pump waits for the account map",
      );
    }
    if (!stopped) timer = setTimeout(refresh, loaded ? o.refreshMs : (o.retryMs ?? 5000));
  }
  void refresh();
  return {
    loaded: () => loaded,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
