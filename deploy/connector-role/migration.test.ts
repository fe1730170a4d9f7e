import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  CreateChangeSetCommand,
  DeleteChangeSetCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
} from "@aws-sdk/client-cloudformation";
import { GetRoleCommand, GetRolePolicyCommand, ListRolePoliciesCommand } from "@aws-sdk/client-iam";
import { INLINE_POLICY_NAME, permissionPolicy, ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import { deployConnectorStack, templateBody, updateConnectorStack } from "./deploy.ts";
import { motoSellerAccount } from "./moto-account.ts";

const endpoint = process.env.AWS_ENDPOINT_URL;
if (!endpoint) throw new Error("AWS_ENDPOINT_URL is not set: run through scripts/test.ts");

const decode = (document: string | undefined) => JSON.parse(decodeURIComponent(document ?? ""));

async function legacyStack() {
  const seller = await motoSellerAccount(endpoint!);
  const stackName = `flowstate-connector-${seller.accountId}`;
  const roleArn = await deployConnectorStack({
    cloudformation: seller.cloudformation,
    stackName,
    principalArns: [
      "arn:aws:iam::111122223333:role/flowstate-prod-backend",
      "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution",
    ],
    externalId: randomUUID(),
    version: "legacy",
  });
  const inlinePolicy = async () =>
    decode(
      (await seller.iam.send(new GetRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: INLINE_POLICY_NAME })))
        .PolicyDocument,
    );
  const role = async () => (await seller.iam.send(new GetRoleCommand({ RoleName: ROLE_NAME }))).Role!;
  return { seller, stackName, roleArn, inlinePolicy, role };
}

describe("the 2026-08-31 policy migration (stack update from the legacy template)", () => {
  it("starts from the legacy policy: no MarketplaceAgreementRead, no Seller scope", async () => {
    const { seller, inlinePolicy } = await legacyStack();
    assert.deepEqual(
      await inlinePolicy(),
      permissionPolicy({ partition: "aws", accountId: seller.accountId, version: "legacy" }),
    );
  });

  it("changes only the inline policy and keeps the role's ARN, id, creation date and trust policy", async () => {
    const { seller, stackName, roleArn, inlinePolicy, role } = await legacyStack();
    const before = await role();

    // The existing parameter values are reused, as a tenant re-running the stack would.
    const after = await updateConnectorStack({ cloudformation: seller.cloudformation, stackName, version: "current" });

    assert.equal(after, roleArn);
    const updated = await role();
    assert.equal(updated.Arn, before.Arn);
    assert.equal(updated.RoleId, before.RoleId);
    assert.deepEqual(updated.CreateDate, before.CreateDate);
    assert.deepEqual(decode(updated.AssumeRolePolicyDocument), decode(before.AssumeRolePolicyDocument));
    assert.deepEqual(await inlinePolicy(), permissionPolicy({ partition: "aws", accountId: seller.accountId }));
    const { PolicyNames } = await seller.iam.send(new ListRolePoliciesCommand({ RoleName: ROLE_NAME }));
    assert.deepEqual(PolicyNames, [INLINE_POLICY_NAME]);
    const { Stacks } = await seller.cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    assert.equal(Stacks?.[0]?.StackStatus, "UPDATE_COMPLETE");
  });

  it("previews as one modification, of the policy resource alone", async () => {
    const { seller, stackName } = await legacyStack();
    const changeSetName = "policy-2026-08-31";
    await seller.cloudformation.send(
      new CreateChangeSetCommand({
        StackName: stackName,
        ChangeSetName: changeSetName,
        ChangeSetType: "UPDATE",
        TemplateBody: templateBody("current"),
        Capabilities: ["CAPABILITY_NAMED_IAM"],
        Parameters: [
          { ParameterKey: "FlowstatePrincipalArns", UsePreviousValue: true },
          { ParameterKey: "ExternalId", UsePreviousValue: true },
        ],
      }),
    );
    const { Changes } = await seller.cloudformation.send(
      new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }),
    );
    assert.deepEqual(
      Changes?.map((c) => [
        c.ResourceChange?.Action,
        c.ResourceChange?.LogicalResourceId,
        c.ResourceChange?.ResourceType,
      ]),
      [["Modify", "MarketplaceCatalogAccessPolicy", "AWS::IAM::Policy"]],
    );
    await seller.cloudformation.send(
      new DeleteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }),
    );
  });

  it("is harmless to re-run: a second update leaves the current policy and the role as they are", async () => {
    const { seller, stackName, roleArn, inlinePolicy, role } = await legacyStack();
    await updateConnectorStack({ cloudformation: seller.cloudformation, stackName, version: "current" });
    const before = await role();
    assert.equal(
      await updateConnectorStack({ cloudformation: seller.cloudformation, stackName, version: "current" }),
      roleArn,
    );
    assert.equal((await role()).RoleId, before.RoleId);
    assert.deepEqual(await inlinePolicy(), permissionPolicy({ partition: "aws", accountId: seller.accountId }));
  });
});
