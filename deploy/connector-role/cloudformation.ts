import { connectorTemplate } from "@flowstate/shared/marketplace/connector-role/cloudformation-template";
import {
  MARKETPLACE_REGION,
  POLICY_VERSION_LABEL,
  type PolicyVersion,
} from "@flowstate/shared/marketplace/connector-role/policies";
import { stringify } from "yaml";

/** Where each template lives, relative to this directory (the files tenants download). */
export const TEMPLATE_FILES: Record<PolicyVersion, string> = {
  current: "cloudformation/marketplace-connector.yaml",
  legacy: "cloudformation/legacy/marketplace-connector-before-2026-08-31.yaml",
};

/**
 * The template file's exact text (what `generate.ts` writes and the tests compare): the template
 * object of shared/src/marketplace/connector-role/ (which connector-svc also serves) as YAML. The
 * header still names deploy/connector-role/policies.ts, where the policies lived before they moved
 * below the services: the published templates stay byte for byte what tenants have downloaded.
 */
export function connectorTemplateYaml(version: PolicyVersion = "current"): string {
  const header = [
    `# Flowstate connector role, CloudFormation (policy version ${POLICY_VERSION_LABEL[version]}).`,
    "# Generated from deploy/connector-role/policies.ts by `node deploy/connector-role/generate.ts`; do not edit.",
    `# Deploy in the seller account in ${MARKETPLACE_REGION}; acknowledge CAPABILITY_NAMED_IAM (the role has a fixed name).`,
  ];
  return `${header.join("\n")}\n${stringify(connectorTemplate(version), { lineWidth: 0, version: "1.1" })}`;
}
