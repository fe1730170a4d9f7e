import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { type ConnectorRole, connectorRole } from "@flowstate/seller-sandbox/testing/connector-role";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import type { Logger } from "@flowstate/shared/log/logger";
import { createSellerSessions, type SellerConnector } from "@flowstate/shared/marketplace/seller-sessions";
import { type ConnectorDirectory, type SellerAccess, sellerAccess } from "../marketplace/seller-access.ts";

export interface ConnectOptions {
  version?: "current" | "legacy";
  /** The Flowstate principals the role trusts (default both). */
  trusted?: ("backend" | "mcp-execution")[];
  /**
   * Faults the seller account has from the start (the sandbox's `PUT /faults` list), installed
   * before the tenant is connected: nothing of Flowstate (the agreement watch's backfill, a first
   * read) can reach the account before they hold.
   */
  faults?: object[];
}

export interface ConnectedSeller {
  role: ConnectorRole;
  /** The account's control plane on the sandbox (`/_sandbox/accounts/<id>`). */
  control: string;
}

/**
 * Seller access for service-level tests: the real seller-session module (shared/src/marketplace)
 * on the sandbox's STS with the sandbox's principal keys, and a connector directory that holds the
 * tenants a test connected, each with a seller account of its own in the emulator (the project's
 * CloudFormation template deployed).
 */
export function sandboxSellers(
  endpoint: string,
  logger: Logger,
): SellerAccess & {
  connect(tenantId: string, options: ConnectOptions): Promise<ConnectedSeller>;
  disconnect(tenantId: string): void;
  /** Connects the tenant again to a role it was connected to before (the same seller account). */
  reconnect(tenantId: string, role: ConnectorRole): void;
  /** Cached seller sessions (tenant × principal) in this process. */
  sessionCount(): number;
  close(): void;
} {
  const sessions = createSellerSessions({
    aws: createAwsClients({ marketplaceEndpoint: endpoint }),
    principals: DEFAULT_PRINCIPAL_KEYS,
    logger,
  });
  const connectors = new Map<string, SellerConnector>();
  const directory: ConnectorDirectory = {
    get: async (tenantId) => {
      const c = connectors.get(tenantId);
      return c ? { ...c, accountId: c.roleArn.split(":")[4] ?? "" } : null;
    },
    forget: () => {},
    connected: async () => [...connectors.keys()],
  };
  const access = sellerAccess(sessions, directory);
  return {
    ...access,
    async connect(tenantId, options) {
      const role = await connectorRole(options);
      const control = `${endpoint}/_sandbox/accounts/${role.accountId}`;
      if (options.faults) await putFaults(control, options.faults);
      connectors.set(tenantId, { tenantId, roleArn: role.roleArn, externalId: role.externalId });
      return { role, control };
    },
    disconnect(tenantId) {
      connectors.delete(tenantId);
      access.drop(tenantId);
    },
    reconnect(tenantId, role) {
      connectors.set(tenantId, { tenantId, roleArn: role.roleArn, externalId: role.externalId });
    },
    sessionCount: () => sessions.stats().cached,
    close: () => sessions.close(),
  };
}

/** Replaces a sandbox seller account's faults (the sandbox's control plane). */
export async function putFaults(control: string, faults: object[]): Promise<void> {
  const res = await fetch(`${control}/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults }),
  });
  if (!res.ok) throw new Error(`sandbox faults not set: ${res.status} ${await res.text()}`);
}
