import { randomInt } from "node:crypto";
import { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import { IAMClient } from "@aws-sdk/client-iam";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";

/** moto's default account: a seller account must differ from it, or the test proves nothing. */
export const MOTO_DEFAULT_ACCOUNT_ID = "123456789012";

/**
 * A fresh 12-digit account id, so parallel tests never share an IAM namespace (the role name
 * `MarketplaceConnector` is fixed per account).
 */
export function uniqueAccountId(): string {
  let id: string;
  do id = String(randomInt(200_000_000_000, 999_999_999_999));
  while (id === MOTO_DEFAULT_ACCOUNT_ID);
  return id;
}

/**
 * Credentials that act in `accountId` inside moto. moto 5.2 is multi-account: the keys returned by
 * its own STS AssumeRole into any role of another account act in that account, and moto does not
 * check the trust policy or even that the role exists. Test-only; on AWS the seller uses their own
 * credentials.
 *
 * @example
 * const credentials = await motoAccountCredentials({ endpoint: process.env.AWS_ENDPOINT_URL!, accountId: uniqueAccountId() });
 * const cloudformation = new CloudFormationClient({ region: "us-east-1", endpoint, credentials });
 */
export async function motoAccountCredentials(input: {
  endpoint: string;
  accountId: string;
}): Promise<AwsCredentialIdentity> {
  const sts = new STSClient({
    region: "us-east-1",
    endpoint: input.endpoint,
    credentials: {
      accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "testing",
      secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "testing",
    },
  });
  const { Credentials: c } = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${input.accountId}:role/seller-admin`,
      RoleSessionName: "seller-admin",
    }),
  );
  if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error("moto STS returned no credentials");
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

/**
 * A fresh seller account in moto with the clients the connector-role tests need.
 *
 * @example
 * const seller = await motoSellerAccount(process.env.AWS_ENDPOINT_URL!);
 * await deployConnectorStack({ cloudformation: seller.cloudformation, ... });
 */
export async function motoSellerAccount(endpoint: string, accountId = uniqueAccountId()) {
  const credentials = await motoAccountCredentials({ endpoint, accountId });
  const options = { region: "us-east-1", endpoint, credentials };
  return { accountId, credentials, cloudformation: new CloudFormationClient(options), iam: new IAMClient(options) };
}
