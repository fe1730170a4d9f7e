import { PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";

/**
 * The statement a seller adds to the connector role for agreement-based (replacement) offers: the
 * interface's policy lets the role search agreements only, while a CreateReplacementOffer change
 * set also needs StartChangeSet's dependent agreement reads (Service Authorization Reference),
 * scoped like the interface's `MarketplaceAgreementRead`.
 */
export const AGREEMENT_READS_POLICY = {
  Version: "2012-10-17",
  Statement: [
    {
      Sid: "MarketplaceAgreementDescribe",
      Effect: "Allow",
      Action: ["aws-marketplace:DescribeAgreement", "aws-marketplace:GetAgreementTerms"],
      Resource: "*",
      Condition: {
        "ForAllValues:StringEquals": { "aws-marketplace:AgreementType": ["PurchaseAgreement"] },
        StringEquals: { "aws-marketplace:PartyType": "Proposer" },
      },
    },
  ],
};

/**
 * Adds {@link AGREEMENT_READS_POLICY} to a deployed connector role as a second inline policy (as a
 * seller would in the IAM console), in the emulator's IAM, and makes the sandbox read the role
 * again at once (`/_sandbox/iam/flush`).
 *
 * @example
 * await grantAgreementReads(sandbox.endpoint, role.roleArn);
 */
export async function grantAgreementReads(sandboxEndpoint: string, roleArn: string): Promise<void> {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint) throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator");
  const accountId = roleArn.split(":")[4] ?? "";
  const { iam } = await motoSellerAccount(endpoint, accountId);
  await iam.send(
    new PutRolePolicyCommand({
      RoleName: roleArn.split("/").at(-1),
      PolicyName: "MarketplaceAgreementBasedOffers",
      PolicyDocument: JSON.stringify(AGREEMENT_READS_POLICY),
    }),
  );
  iam.destroy();
  const res = await fetch(`${sandboxEndpoint}/_sandbox/iam/flush`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ roleArn }),
  });
  if (res.status !== 204) throw new Error(`sandbox IAM flush answered ${res.status}`);
}
