import { ConnectedAccounts } from "@flowstate/contracts/internal/connector";
import { bodyless, IDENTITY_HEADER, signAssertion } from "@flowstate/shared/auth/identity-assertion";

const PATH = "/internal/v1/marketplace-connectors";

/**
 * Reads every connected tenant's seller account from connector-svc, signed as partner-inbound
 * (a service identity, accepted on `/internal/v1` only). Throws when connector-svc does not answer
 * in time or answers off-contract; the caller keeps its current map and retries.
 */
export async function fetchConnectedAccounts(
  connectorUrl: string,
  internalAuthSecret: string,
  timeoutMs = 5000,
): Promise<ConnectedAccounts["connectors"]> {
  const header = signAssertion(internalAuthSecret, bodyless("GET", PATH), {
    identity: { kind: "service", service: "partner-inbound" },
  });
  const res = await fetch(new URL(PATH, connectorUrl), {
    headers: { [IDENTITY_HEADER]: header },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`connector-svc answered ${res.status} to ${PATH}`);
  return ConnectedAccounts.parse(await res.json()).connectors;
}
