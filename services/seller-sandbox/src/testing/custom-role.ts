import { CreateRoleCommand, PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";
import { principalArn } from "../credentials/principals.ts";

/**
 * A seller account whose `MarketplaceConnector` role carries an inline policy of the test's
 * choosing, created straight in the emulator's IAM (for operations the connector template does
 * not grant, such as ListChangeSets and CancelChangeSet, and for evaluator edge cases).
 *
 * @example
 * const role = await customRole({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "aws-marketplace:*", Resource: "*" }] });
 */
export async function customRole(policy: object): Promise<{ accountId: string; roleArn: string; externalId: string }> {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint) throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator");
  const seller = await motoSellerAccount(endpoint);
  const names = { flowstateAccountId: "123456789012", prefix: "flowstate", stage: "dev" };
  const externalId = crypto.randomUUID();
  const trust = {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: [principalArn(names, "backend"), principalArn(names, "mcp-execution")] },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "sts:ExternalId": externalId } },
      },
    ],
  };
  const role = await seller.iam.send(
    new CreateRoleCommand({ RoleName: "MarketplaceConnector", AssumeRolePolicyDocument: JSON.stringify(trust) }),
  );
  await seller.iam.send(
    new PutRolePolicyCommand({
      RoleName: "MarketplaceConnector",
      PolicyName: "MarketplaceCatalogAccess",
      PolicyDocument: JSON.stringify(policy),
    }),
  );
  return { accountId: seller.accountId, roleArn: role.Role?.Arn ?? "", externalId };
}
