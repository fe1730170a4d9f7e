import assert from "node:assert/strict";
import { OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import { permissionPolicy, trustPolicy } from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import type { ConnectorSettings } from "../deps.ts";
import { onboardingBundle } from "./bundle.ts";

const settings: ConnectorSettings = {
  flowstateAccountId: "111122223333",
  prefix: "flowstate",
  stage: "prod",
  principals: ["backend", "mcp-execution", "partner-sync"],
  templateUrl: "https://flowstate-public.s3.amazonaws.com/connector-role/2026-08-31/marketplace-connector.yaml",
  terraformModuleSource: "flowstate/marketplace-connector/aws",
  terraformModuleVersion: "2.0.0",
  healthCacheMs: 30_000,
};
const externalId = "0b6c2c9e-0f55-4a8e-9d0c-7d1c1d2f3e4a";

describe("the onboarding bundle", () => {
  it("lists every configured principal (the list can grow) in every path", () => {
    const bundle = OnboardingBundle.parse(onboardingBundle(settings, externalId, undefined));
    const arns = bundle.principals.map((p) => p.arn);
    assert.deepEqual(arns, [
      "arn:aws:iam::111122223333:role/flowstate-prod-backend",
      "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution",
      "arn:aws:iam::111122223333:role/flowstate-prod-partner-sync",
    ]);
    assert.equal(bundle.cloudformation.parameters.FlowstatePrincipalArns, arns.join(","));
    assert.deepEqual(bundle.terraform.variables.flowstate_principal_arns, arns);
    for (const arn of arns) assert.ok(bundle.terraform.snippet.includes(`"${arn}",`));
    assert.deepEqual(bundle.console.trust_policy, trustPolicy({ principalArns: arns, externalId }));
  });

  it("fills the quick-create link with the template URL and every parameter", () => {
    const bundle = onboardingBundle(settings, externalId, undefined);
    const link = new URL(bundle.cloudformation.quick_create_url);
    assert.equal(link.origin, "https://us-east-1.console.aws.amazon.com");
    const q = new URLSearchParams(link.hash.split("?")[1]);
    assert.equal(q.get("templateURL"), settings.templateUrl);
    assert.equal(q.get("param_ExternalId"), externalId);
    assert.equal(q.get("stackName"), bundle.cloudformation.stack_name);
  });

  it("shows the permission policy with the seller's account once connected, a placeholder before", () => {
    assert.deepEqual(
      onboardingBundle(settings, externalId, "444455556666").console.permission_policy,
      permissionPolicy({ partition: "aws", accountId: "444455556666" }),
    );
    assert.match(
      JSON.stringify(onboardingBundle(settings, externalId, undefined).console.permission_policy),
      /<YOUR_ACCOUNT_ID>/,
    );
  });
});
