import type { MarketplaceAgreementClient } from "@aws-sdk/client-marketplace-agreement";
import type { MarketplaceCatalogClient } from "@aws-sdk/client-marketplace-catalog";
import type { PolicyVersion } from "@flowstate/shared/marketplace/connector-role/policies";
import type { AwsCredentialIdentity } from "@smithy/types";
import { agreementClient, assumeConnector, catalogClient, type PrincipalName } from "./clients.ts";
import { type ConnectorRole, connectorRole } from "./connector-role.ts";
import type { RunningSandbox } from "./start-sandbox.ts";

export interface SellerSession {
  role: ConnectorRole;
  credentials: AwsCredentialIdentity;
  catalog: MarketplaceCatalogClient;
  agreement: MarketplaceAgreementClient;
  /** The account's control-plane URL: `${endpoint}/_sandbox/accounts/<id>`. */
  control: string;
}

export interface SellerSessionOptions {
  version?: PolicyVersion;
  principal?: PrincipalName;
}

/**
 * A fresh seller account with the connector role deployed, assumed as a Flowstate principal, and
 * real Catalog and Agreement clients on its credentials.
 *
 * @example
 * const { catalog, role } = await sellerSession(sandbox);
 * await catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" }));
 */
export async function sellerSession(
  sandbox: RunningSandbox,
  options: SellerSessionOptions = {},
): Promise<SellerSession> {
  const role = await connectorRole({ version: options.version ?? "current" });
  const credentials = await assumeConnector(
    sandbox.endpoint,
    options.principal ?? "backend",
    role.roleArn,
    role.externalId,
  );
  return {
    role,
    credentials,
    catalog: catalogClient(sandbox.endpoint, credentials),
    agreement: agreementClient(sandbox.endpoint, credentials),
    control: `${sandbox.endpoint}/_sandbox/accounts/${role.accountId}`,
  };
}

export type SdkError = Error & { $metadata: { httpStatusCode?: number }; [member: string]: unknown };

/** The first rejection of a promise, typed loosely for assertions on AWS SDK errors. */
export async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error("expected the call to fail");
}
