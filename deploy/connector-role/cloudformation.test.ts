import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DescribeStacksCommand, ValidateTemplateCommand } from "@aws-sdk/client-cloudformation";
import {
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
} from "@aws-sdk/client-iam";
import {
  INLINE_POLICY_NAME,
  permissionPolicy,
  ROLE_NAME,
  trustPolicy,
} from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import { deployConnectorStack, templateBody } from "./deploy.ts";
import { MOTO_DEFAULT_ACCOUNT_ID, motoSellerAccount } from "./moto-account.ts";
import { readTemplate } from "./template-eval.ts";

const endpoint = process.env.AWS_ENDPOINT_URL;
if (!endpoint) throw new Error("AWS_ENDPOINT_URL is not set: run through scripts/test.ts");

const principals = (account: string) => [
  `arn:aws:iam::${account}:role/flowstate-dev-backend`,
  `arn:aws:iam::${account}:role/flowstate-dev-mcp-execution`,
];
// IAM returns policy documents URL-encoded (RFC 3986), as AWS does.
const decode = (document: string | undefined) => JSON.parse(decodeURIComponent(document ?? ""));

describe("the CloudFormation template", () => {
  it("creates MarketplaceConnector in the seller account with exactly the trust and inline policy of policies.ts", async () => {
    const seller = await motoSellerAccount(endpoint);
    assert.notEqual(seller.accountId, MOTO_DEFAULT_ACCOUNT_ID);
    const principalArns = principals("111122223333");
    const externalId = randomUUID();

    const roleArn = await deployConnectorStack({
      cloudformation: seller.cloudformation,
      stackName: `flowstate-connector-${seller.accountId}`,
      principalArns,
      externalId,
    });

    assert.equal(roleArn, `arn:aws:iam::${seller.accountId}:role/${ROLE_NAME}`);
    const { Role } = await seller.iam.send(new GetRoleCommand({ RoleName: ROLE_NAME }));
    assert.equal(Role?.Arn, roleArn);
    assert.deepEqual(decode(Role?.AssumeRolePolicyDocument), trustPolicy({ principalArns, externalId }));

    const { PolicyNames } = await seller.iam.send(new ListRolePoliciesCommand({ RoleName: ROLE_NAME }));
    assert.deepEqual(PolicyNames, [INLINE_POLICY_NAME]);
    const { AttachedPolicies } = await seller.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: ROLE_NAME }));
    assert.deepEqual(AttachedPolicies, [], "no managed policy, as the console path says");
    const inline = await seller.iam.send(
      new GetRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: INLINE_POLICY_NAME }),
    );
    assert.deepEqual(
      decode(inline.PolicyDocument),
      permissionPolicy({ partition: "aws", accountId: seller.accountId }),
    );
  });

  it("answers CREATE_COMPLETE with the RoleArn output", async () => {
    const seller = await motoSellerAccount(endpoint);
    const stackName = `flowstate-connector-${seller.accountId}`;
    await deployConnectorStack({
      cloudformation: seller.cloudformation,
      stackName,
      principalArns: principals("111122223333"),
      externalId: randomUUID(),
    });
    const { Stacks } = await seller.cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    assert.equal(Stacks?.[0]?.StackStatus, "CREATE_COMPLETE");
    assert.deepEqual(
      Stacks?.[0]?.Outputs?.map((o) => [o.OutputKey, o.OutputValue]),
      [["RoleArn", `arn:aws:iam::${seller.accountId}:role/${ROLE_NAME}`]],
    );
  });

  it("trusts a single principal when only the backend is listed (the MCP path then fails at STS)", async () => {
    const seller = await motoSellerAccount(endpoint);
    const [backend] = principals("111122223333");
    const externalId = randomUUID();
    await deployConnectorStack({
      cloudformation: seller.cloudformation,
      stackName: "backend-only",
      principalArns: [backend!],
      externalId,
    });
    const { Role } = await seller.iam.send(new GetRoleCommand({ RoleName: ROLE_NAME }));
    // CloudFormation passes a one-element CommaDelimitedList as a list, which IAM keeps.
    assert.deepEqual(decode(Role?.AssumeRolePolicyDocument), trustPolicy({ principalArns: [backend!], externalId }));
  });

  it("cannot be deployed twice into one account, because the role name is fixed", async () => {
    const seller = await motoSellerAccount(endpoint);
    const input = {
      cloudformation: seller.cloudformation,
      principalArns: principals("111122223333"),
      externalId: randomUUID(),
    };
    await deployConnectorStack({ ...input, stackName: "first" });
    await assert.rejects(
      deployConnectorStack({ ...input, stackName: "second" }),
      /MarketplaceConnector|already exists/,
    );
  });

  it("passes CloudFormation's template linter (cfn-lint behind ValidateTemplate), which does catch a broken template", async () => {
    const seller = await motoSellerAccount(endpoint);
    for (const version of ["current", "legacy"] as const) {
      const answer = await seller.cloudformation.send(
        new ValidateTemplateCommand({ TemplateBody: templateBody(version) }),
      );
      assert.match(answer.Description ?? "", /MarketplaceConnector/);
    }
    const broken = templateBody("current").replace(
      "PolicyName: MarketplaceCatalogAccess",
      "PolicyNam: MarketplaceCatalogAccess",
    );
    await assert.rejects(seller.cloudformation.send(new ValidateTemplateCommand({ TemplateBody: broken })), {
      name: "ValidationError",
    });
  });

  it("needs CAPABILITY_NAMED_IAM: its only resources are IAM ones and the role has a fixed name", () => {
    // moto 5.2 does not enforce capabilities (it accepts CreateStack without them), so this is
    // checked on the template: AWS demands CAPABILITY_NAMED_IAM for any IAM resource with a custom name.
    const resources = Object.values(readTemplate("current").Resources) as {
      Type: string;
      Properties: Record<string, unknown>;
    }[];
    assert.ok(resources.every((r) => r.Type.startsWith("AWS::IAM::")));
    assert.equal(resources.find((r) => r.Type === "AWS::IAM::Role")?.Properties.RoleName, ROLE_NAME);
    assert.match(templateBody("current"), /CAPABILITY_NAMED_IAM/);
  });

  it("declares FlowstatePrincipalArns as a CommaDelimitedList and ExternalId as a pattern-checked String", () => {
    for (const version of ["current", "legacy"] as const) {
      const { Parameters, Rules, Outputs } = readTemplate(version);
      assert.equal(Parameters.FlowstatePrincipalArns.Type, "CommaDelimitedList");
      assert.equal(Parameters.ExternalId.Type, "String");
      assert.equal(Parameters.ExternalId.AllowedPattern, "^[\\w+=,.@:/-]{2,1224}$");
      assert.equal(Parameters.ExternalId.NoEcho, true);
      const asserted = Rules.FlowstatePrincipalArnsListed.Assertions.map(
        (a: { Assert: { "Fn::Not": [{ "Fn::Contains": [unknown, string] }] } }) =>
          a.Assert["Fn::Not"][0]["Fn::Contains"],
      );
      assert.deepEqual(asserted, [
        [{ Ref: "FlowstatePrincipalArns" }, ""],
        [{ Ref: "FlowstatePrincipalArns" }, "undefined"],
      ]);
      assert.deepEqual(Outputs.RoleArn.Value, { "Fn::GetAtt": ["MarketplaceConnectorRole", "Arn"] });
    }
  });
});
