import { randomUUID } from "node:crypto";
import type { PolicyVersion } from "@flowstate/shared/marketplace/connector-role/policies";
import { deployConnectorStack, updateConnectorStack } from "../../../../deploy/connector-role/deploy.ts";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";
import { principalArn } from "../credentials/principals.ts";
import type { PrincipalName } from "./clients.ts";

export interface ConnectorRole {
  accountId: string;
  roleArn: string;
  externalId: string;
  /** Re-deploys the stack with another template version (the 2026-08-31 migration). */
  update(version: PolicyVersion): Promise<string>;
}

/**
 * A fresh seller account in the emulator with the `MarketplaceConnector` role deployed from the
 * project's CloudFormation template, the way a tenant onboards.
 *
 * @example
 * const role = await connectorRole({ trusted: ["backend"], version: "legacy" });
 */
export async function connectorRole(
  options: { trusted?: PrincipalName[]; version?: PolicyVersion; flowstateAccountId?: string } = {},
): Promise<ConnectorRole> {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint) throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator");
  const seller = await motoSellerAccount(endpoint);
  const names = { flowstateAccountId: options.flowstateAccountId ?? "123456789012", prefix: "flowstate", stage: "dev" };
  const trusted = options.trusted ?? ["backend", "mcp-execution"];
  const externalId = randomUUID();
  const stackName = "flowstate-marketplace-connector";
  const roleArn = await deployConnectorStack({
    cloudformation: seller.cloudformation,
    stackName,
    principalArns: trusted.map((name) => principalArn(names, name)),
    externalId,
    version: options.version ?? "current",
  });
  return {
    accountId: seller.accountId,
    roleArn,
    externalId,
    update: (version) => updateConnectorStack({ cloudformation: seller.cloudformation, stackName, version }),
  };
}
