import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CreateRoleCommand, PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import { INLINE_POLICY_NAME, ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";
import { renderTemplate, TERRAFORM_TEMPLATE_FILES } from "../../../../deploy/connector-role/terraform.ts";
import { type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";

/**
 * The onboarding journey of interface.md §5.3, once per path, through the gateway: flag on, read
 * the external ID and the bundle, create the role in a fresh seller account of the emulator the
 * way that path does, connect, and find the connector healthy. The CloudFormation path is
 * stack.connectedTenant() itself (the quick-create link's template and parameters).
 */
describe("the onboarding journey, per path", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_paths" });
  });
  afterAll(() => stack.close());

  const begin = async () => {
    const { tenantId, owner } = await stack.tenant();
    const base = `/v1/tenants/${tenantId}/integrations/marketplace`;
    const status = await stack.call("GET", base, { token: owner.token });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.connected, false);
    const externalId = recordSecret(status.json.external_id as string);
    const bundle = OnboardingBundle.parse((await stack.call("GET", `${base}/onboarding`, { token: owner.token })).json);
    assert.equal(bundle.external_id, externalId);
    const finish = async (roleArn: string, accountId: string) => {
      const connect = await stack.call("POST", base, { token: owner.token, body: { role_arn: roleArn } });
      assert.equal(connect.status, 200, connect.text);
      assert.deepEqual(connect.json, { status: "connected", account_id: accountId });
      const health = await stack.call("GET", `${base}/health`, { token: owner.token });
      assert.equal(health.json.healthy, true, health.text);
    };
    return { bundle, finish };
  };

  it("CloudFormation: the quick-create link's template (reachable) and parameters, stack created, RoleArn connected", async () => {
    const t = await stack.connectedTenant();
    const link = new URL(t.seller.bundle.cloudformation.quick_create_url);
    assert.equal(link.searchParams.get("region"), "us-east-1");
    const query = new URLSearchParams(link.hash.split("?")[1]);
    assert.equal(query.get("param_ExternalId"), t.externalId);
    assert.equal(
      query.get("param_FlowstatePrincipalArns"),
      t.seller.bundle.cloudformation.parameters.FlowstatePrincipalArns,
    );
    const template = await fetch(query.get("templateURL")!);
    assert.equal(template.status, 200);
    const health = await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace/health`, {
      token: t.owner.token,
    });
    assert.equal(health.json.healthy, true, health.text);
  });

  it("Terraform: the module's policy templates rendered with the bundle's variables, applied through IAM", async () => {
    const { bundle, finish } = await begin();
    assert.match(bundle.terraform.snippet, new RegExp(`external_id = "${bundle.external_id}"`));
    for (const arn of bundle.terraform.variables.flowstate_principal_arns)
      assert.ok(bundle.terraform.snippet.includes(arn));
    assert.match(bundle.terraform.snippet, /version = "2\.0\.0"/);
    const seller = await motoSellerAccount(process.env.AWS_ENDPOINT_URL!);
    const moduleFile = (f: string) =>
      readFileSync(new URL(`../../../../deploy/connector-role/${f}`, import.meta.url), "utf8");
    // What `terraform apply` makes of the module (main.tf): the role with the rendered trust policy, then the inline policy.
    const trust = renderTemplate(moduleFile(TERRAFORM_TEMPLATE_FILES.trust), {
      principal_arns: bundle.terraform.variables.flowstate_principal_arns,
      external_id: bundle.terraform.variables.external_id,
    });
    const permission = renderTemplate(moduleFile(TERRAFORM_TEMPLATE_FILES.permission), {
      partition: "aws",
      account_id: seller.accountId,
    });
    const role = await seller.iam.send(new CreateRoleCommand({ RoleName: ROLE_NAME, AssumeRolePolicyDocument: trust }));
    await seller.iam.send(
      new PutRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: INLINE_POLICY_NAME, PolicyDocument: permission }),
    );
    await finish(role.Role!.Arn!, seller.accountId);
  });

  it("Console: the bundle's trust policy and permission policy (account id filled in) created through IAM calls", async () => {
    const { bundle, finish } = await begin();
    assert.ok(bundle.console.steps.some((s) => s.includes(bundle.service_account_id)));
    assert.ok(bundle.console.steps.some((s) => s.includes("MarketplaceConnector")));
    const seller = await motoSellerAccount(process.env.AWS_ENDPOINT_URL!);
    const permission = JSON.stringify(bundle.console.permission_policy).replaceAll(
      "<YOUR_ACCOUNT_ID>",
      seller.accountId,
    );
    const role = await seller.iam.send(
      new CreateRoleCommand({
        RoleName: ROLE_NAME,
        AssumeRolePolicyDocument: JSON.stringify(bundle.console.trust_policy),
      }),
    );
    await seller.iam.send(
      new PutRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: INLINE_POLICY_NAME, PolicyDocument: permission }),
    );
    await finish(role.Role!.Arn!, seller.accountId);
  });

  it("shows the principals from configuration, Flowstate's account, stage and region, and no second copy of a policy", async () => {
    const { bundle } = await begin();
    assert.deepEqual(
      bundle.principals.map((p) => [p.name, p.arn]),
      [
        ["backend", "arn:aws:iam::123456789012:role/flowstate-dev-backend"],
        ["mcp-execution", "arn:aws:iam::123456789012:role/flowstate-dev-mcp-execution"],
      ],
    );
    assert.deepEqual([bundle.service_account_id, bundle.stage, bundle.region], ["123456789012", "dev", "us-east-1"]);
    // The console's trust policy is exactly what the Terraform template renders for the same values.
    const trust = renderTemplate(
      readFileSync(
        new URL(`../../../../deploy/connector-role/${TERRAFORM_TEMPLATE_FILES.trust}`, import.meta.url),
        "utf8",
      ),
      { principal_arns: bundle.principals.map((p) => p.arn), external_id: bundle.external_id },
    );
    assert.deepEqual(bundle.console.trust_policy, JSON.parse(trust));
  });
});
