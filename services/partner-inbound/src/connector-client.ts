import { ConnectedAccounts } from "@flowstate/contracts/internal/connector";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { internalCall } from "@flowstate/shared/http/internal-call";

const PATH = "/internal/v1/marketplace-connectors";

/**
 * Reads every connected tenant's seller account from connector-svc, signed as partner-inbound
 * with its one key (`partner-inbound--connector-svc`, ADR 0014: the only call it can sign).
 * Throws when connector-svc does not answer in time or answers off-contract; the caller keeps its
 * current map and retries.
 *
 * @example
 * await fetchConnectedAccounts(config.CONNECTOR_URL, serviceSigner(keys.keyring, "connector-svc"));
 */
export async function fetchConnectedAccounts(
  connectorUrl: string,
  sign: (binding: ReturnType<typeof bodyless>) => string,
  timeoutMs = 5000,
): Promise<ConnectedAccounts["connectors"]> {
  const res = await internalCall(new URL(PATH, connectorUrl), {
    headers: { [IDENTITY_HEADER]: sign(bodyless("GET", PATH)) },
    timeoutMs,
  });
  if (res.status < 200 || res.status > 299) {
    await res.discard();
    throw new Error(`connector-svc answered ${res.status} to ${PATH}`);
  }
  return ConnectedAccounts.parse(await res.json()).connectors;
}
