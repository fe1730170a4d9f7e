import type { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import { CreateStackCommand, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { type IAMClient, UpdateAssumeRolePolicyCommand } from "@aws-sdk/client-iam";
import type { OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import { type PolicyVersion, ROLE_NAME, trustPolicy } from "@flowstate/shared/marketplace/connector-role/policies";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { templateBody, updateConnectorStack } from "../../../../deploy/connector-role/deploy.ts";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";
import type { Answer, CallOptions } from "./gateway-caller.ts";

export interface SellerAccount {
  accountId: string;
  roleArn: string;
  /** The external ID the role's trust policy requires (the tenant's, unless a test chose another). */
  externalId: string;
  bundle: OnboardingBundle;
  cloudformation: CloudFormationClient;
  iam: IAMClient;
  /** The sandbox's control plane for this account (`…/_sandbox/accounts/<id>`). */
  control: string;
  /** Re-deploys the stack with another template version, keeping the parameters (interface.md §9). */
  update(version: PolicyVersion): Promise<string>;
  /**
   * Puts another external ID into the role's trust policy (after a disconnect the tenant has a new
   * one) and makes the sandbox read the role again at once.
   */
  trust(externalId: string): Promise<void>;
}

export interface SellerAccountOptions {
  /** Principals the trust policy lists (default: every principal of the bundle). */
  trusted?: string[];
  /** `legacy`: the policy of stacks deployed before 2026-08-31. */
  version?: PolicyVersion;
  /** A trust policy with another external ID than the tenant's (a failure mode). */
  externalId?: string;
}

interface Caller {
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  sandbox: { endpoint: string };
}

/**
 * The CloudFormation path of interface.md §5.3 as a seller walks it: read the onboarding bundle
 * through the gateway, follow the quick-create link (the template fetched from its `templateURL`,
 * the parameters from its `param_*`), create the stack in a fresh seller account of the emulator
 * and read `RoleArn`. The legacy version deploys the committed pre-2026-08-31 template instead.
 */
export async function sellerAccount(
  stack: Caller,
  options: SellerAccountOptions,
  tenant: { tenantId: string; token: string },
): Promise<SellerAccount> {
  const endpoint = process.env.AWS_ENDPOINT_URL!;
  const answer = await stack.call("GET", `/v1/tenants/${tenant.tenantId}/integrations/marketplace/onboarding`, {
    token: tenant.token,
  });
  if (answer.status !== 200) throw new Error(`onboarding: ${answer.status} ${answer.text}`);
  const bundle = answer.json as OnboardingBundle;
  recordSecret(bundle.external_id);
  const link = new URLSearchParams(new URL(bundle.cloudformation.quick_create_url).hash.split("?")[1]);
  const templateUrl = link.get("templateURL")!;
  const legacy = options.version === "legacy";
  const template = legacy ? undefined : await (await fetch(templateUrl)).text();
  if (template !== undefined && !template.includes("MarketplaceConnector"))
    throw new Error("no template at templateURL");
  const arns = (link.get("param_FlowstatePrincipalArns") ?? "").split(",");
  const trusted = options.trusted
    ? arns.filter((arn) => options.trusted!.some((name) => arn.endsWith(`-${name}`)))
    : arns;
  const externalId = options.externalId ?? link.get("param_ExternalId")!;
  const seller = await motoSellerAccount(endpoint);
  const stackName = link.get("stackName")!;
  await seller.cloudformation.send(
    new CreateStackCommand({
      StackName: stackName,
      TemplateBody: template ?? templateBody("legacy"),
      Parameters: [
        { ParameterKey: "FlowstatePrincipalArns", ParameterValue: trusted.join(",") },
        { ParameterKey: "ExternalId", ParameterValue: externalId },
      ],
      Capabilities: bundle.cloudformation.capabilities,
    }),
  );
  const { Stacks } = await seller.cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
  const roleArn = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === "RoleArn")?.OutputValue;
  if (Stacks?.[0]?.StackStatus !== "CREATE_COMPLETE" || !roleArn)
    throw new Error("the connector stack did not complete");
  return {
    accountId: seller.accountId,
    roleArn,
    externalId,
    bundle,
    cloudformation: seller.cloudformation,
    iam: seller.iam,
    control: `${stack.sandbox.endpoint}/_sandbox/accounts/${seller.accountId}`,
    update: (version) => updateConnectorStack({ cloudformation: seller.cloudformation, stackName, version }),
    async trust(newExternalId) {
      recordSecret(newExternalId);
      // As the console path does it: moto's CloudFormation never updates a role's trust policy.
      await seller.iam.send(
        new UpdateAssumeRolePolicyCommand({
          RoleName: ROLE_NAME,
          PolicyDocument: JSON.stringify(trustPolicy({ principalArns: trusted, externalId: newExternalId })),
        }),
      );
      await fetch(`${stack.sandbox.endpoint}/_sandbox/iam/flush`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ roleArn }),
      });
    },
  };
}
