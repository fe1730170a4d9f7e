import type { OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import {
  ACCOUNT_PLACEHOLDER,
  INLINE_POLICY_NAME,
  MARKETPLACE_REGION,
  POLICY_VERSION_LABEL,
  permissionPolicy,
  ROLE_NAME,
  trustPolicy,
} from "@flowstate/shared/marketplace/connector-role/policies";
import type { ConnectorSettings } from "../deps.ts";
import { principalsOf, STACK_NAME } from "./values.ts";

const CONSOLE = "https://us-east-1.console.aws.amazon.com";

/** The CloudFormation console's quick-create page with every parameter filled in. */
export function quickCreateUrl(templateUrl: string, principalArns: readonly string[], externalId: string): string {
  const q = new URLSearchParams({
    templateURL: templateUrl,
    stackName: STACK_NAME,
    param_FlowstatePrincipalArns: principalArns.join(","),
    param_ExternalId: externalId,
  });
  return `${CONSOLE}/cloudformation/home?region=${MARKETPLACE_REGION}#/stacks/quickcreate?${q}`;
}

function terraformSnippet(s: ConnectorSettings, principalArns: readonly string[], externalId: string): string {
  return [
    'provider "aws" {',
    `  region = "${MARKETPLACE_REGION}" # credentials of your seller account`,
    "}",
    "",
    'module "flowstate_connector" {',
    `  source  = "${s.terraformModuleSource}"`,
    `  version = "${s.terraformModuleVersion}"`,
    "",
    "  flowstate_principal_arns = [",
    ...principalArns.map((arn) => `    "${arn}",`),
    "  ]",
    `  external_id = "${externalId}"`,
    "}",
    "",
    'output "flowstate_connector_role_arn" {',
    "  value = module.flowstate_connector.role_arn",
    "}",
    "",
  ].join("\n");
}

/**
 * The onboarding bundle (interface.md §5.3, decisions.md): the three paths with this tenant's
 * values, every policy rendered by shared/src/marketplace/connector-role/policies.ts, the one source the
 * CloudFormation template, the Terraform module and the console guide are generated from.
 */
export function onboardingBundle(
  s: ConnectorSettings,
  externalId: string,
  sellerAccountId: string | undefined,
): OnboardingBundle {
  const principals = principalsOf(s);
  const arns = principals.map((p) => p.arn);
  const account = sellerAccountId ?? ACCOUNT_PLACEHOLDER;
  return {
    external_id: externalId,
    principals,
    service_account_id: s.flowstateAccountId,
    stage: s.stage,
    region: MARKETPLACE_REGION,
    role_name: ROLE_NAME,
    inline_policy_name: INLINE_POLICY_NAME,
    policy_version: POLICY_VERSION_LABEL.current,
    cloudformation: {
      template_url: s.templateUrl,
      stack_name: STACK_NAME,
      quick_create_url: quickCreateUrl(s.templateUrl, arns, externalId),
      parameters: { FlowstatePrincipalArns: arns.join(","), ExternalId: externalId },
      capabilities: ["CAPABILITY_NAMED_IAM"],
    },
    terraform: {
      module_source: s.terraformModuleSource,
      module_version: s.terraformModuleVersion,
      variables: { flowstate_principal_arns: arns, external_id: externalId },
      snippet: terraformSnippet(s, arns, externalId),
    },
    console: {
      steps: [
        `Sign in to the AWS console of your seller account (the account that owns your AWS Marketplace listings) and select the region US East (N. Virginia) ${MARKETPLACE_REGION}.`,
        `IAM, Roles, Create role. Trusted entity type: AWS account, Another AWS account, account id ${s.flowstateAccountId}. Tick Require external ID and enter ${externalId}.`,
        `Select no managed policy. Name the role exactly ${ROLE_NAME} and create it.`,
        `On the role: Permissions, Add permissions, Create inline policy, JSON. Paste permission_policy${sellerAccountId ? "" : ` with ${ACCOUNT_PLACEHOLDER} replaced by your seller account id`} and name it exactly ${INLINE_POLICY_NAME}.`,
        "Trust relationships, Edit trust policy: replace the document with trust_policy, which lists every Flowstate principal and your external ID.",
        "Copy the role ARN from the role's summary and connect it in Flowstate (POST …/integrations/marketplace with {role_arn}).",
      ],
      trust_policy: trustPolicy({ principalArns: arns, externalId }) as unknown as Record<string, unknown>,
      permission_policy: permissionPolicy({ partition: "aws", accountId: account }) as unknown as Record<
        string,
        unknown
      >,
    },
  };
}
