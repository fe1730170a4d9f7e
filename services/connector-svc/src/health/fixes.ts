import type { DiagnosisCode, Fixes } from "@flowstate/contracts/rest/connector/diagnosis";
import {
  agreementReadStatement,
  entityArnPattern,
  policyJson,
} from "@flowstate/shared/marketplace/connector-role/policies";

/** The tenant's values the fixes name (what the onboarding bundle shows). */
export interface FixContext {
  roleArn: string;
  principalArns: readonly string[];
  stackName: string;
  templateUrl: string;
  moduleSource: string;
  moduleVersion: string;
  /** The account in the role ARN. */
  accountId: string;
}

const principalList = (c: FixContext) => c.principalArns.join(", ");

/**
 * What the seller changes, per onboarding path (interface.md §5.3 and §9), for each diagnosis
 * code. The external ID itself is never written into a fix (the bundle and status show it to
 * those allowed to see it; a fix may travel further, into a ticket or a chat).
 */
export function fixesFor(code: DiagnosisCode, c: FixContext, principal?: string): Fixes {
  switch (code) {
    case "PRINCIPAL_NOT_TRUSTED":
      return {
        cloudformation: `Update the stack ${c.stackName} with FlowstatePrincipalArns set to all of: ${principalList(c)} (keep ExternalId as it is).`,
        terraform: `Set flowstate_principal_arns to all of: ${principalList(c)}, then run terraform apply.`,
        console: `In IAM, role MarketplaceConnector, Trust relationships, Edit trust policy: list every Flowstate principal under Principal.AWS (${principalList(c)}); ${principal ?? "one of them"} is missing.`,
      };
    case "EXTERNAL_ID_CONDITION_MISSING":
      return {
        cloudformation: `Update the stack ${c.stackName} with the current template from ${c.templateUrl} (it always sets the sts:ExternalId condition), ExternalId set to the value Flowstate shows.`,
        terraform: `Use the module ${c.moduleSource} ${c.moduleVersion} unchanged (it always sets the sts:ExternalId condition) and run terraform apply.`,
        console:
          'In IAM, role MarketplaceConnector, Trust relationships, Edit trust policy: add Condition {"StringEquals": {"sts:ExternalId": "<the external ID Flowstate shows>"}} to the statement.',
      };
    case "EXTERNAL_ID_MISMATCH":
      return {
        cloudformation: `Update the stack ${c.stackName} with ExternalId set to the external ID Flowstate shows now (Settings, Marketplace); it changes only after a disconnect.`,
        terraform: "Set external_id to the external ID Flowstate shows now, then run terraform apply.",
        console:
          'In IAM, role MarketplaceConnector, Trust relationships: set Condition.StringEquals."sts:ExternalId" to the external ID Flowstate shows now, character for character.',
      };
    case "ROLE_IN_OTHER_ACCOUNT":
      return {
        cloudformation: `Check that the stack ${c.stackName} is deployed in account ${c.accountId} (your seller account) and copy its RoleArn output; if it is in another account, deploy it in the seller account or connect with that account's role ARN.`,
        terraform: `Run the module with credentials of account ${c.accountId} (your seller account), region us-east-1, and connect with its role_arn output.`,
        console: `Sign in to account ${c.accountId}, the account that owns your AWS Marketplace listings, and check that IAM has the role MarketplaceConnector there; copy the ARN from its summary.`,
      };
    case "POLICY_MIGRATION_REQUIRED":
      return {
        cloudformation: `Update the stack ${c.stackName} with the current template (${c.templateUrl}), keeping the parameter values and acknowledging CAPABILITY_NAMED_IAM; only the MarketplaceCatalogAccessPolicy resource changes.`,
        terraform: `Published module: set version = "${c.moduleVersion}", run terraform init -upgrade, then terraform apply (one in-place update of aws_iam_role_policy). Copied files: replace marketplace-catalog-access.json.tftpl with the current file, then terraform apply.`,
        console: `In IAM, role MarketplaceConnector, Permissions, edit MarketplaceCatalogAccess and keep every statement; add ${entityArnPattern("aws", c.accountId, "Seller")} to the Resource list of MarketplaceCatalogManage and add this statement: ${policyJson(agreementReadStatement()).replace(/\s+/g, " ")}`,
      };
    case "CATALOG_ACCESS_DENIED":
      return {
        cloudformation: `Update the stack ${c.stackName} with the current template (${c.templateUrl}) so the role's inline policy is Flowstate's MarketplaceCatalogAccess.`,
        terraform: `Use the module ${c.moduleSource} ${c.moduleVersion} unchanged and run terraform apply.`,
        console:
          "In IAM, role MarketplaceConnector, Permissions: the inline policy MarketplaceCatalogAccess must be the document Flowstate shows (onboarding, console); replace it.",
      };
    case "UPSTREAM_THROTTLED":
    case "UPSTREAM_UNAVAILABLE": {
      const wait = "Nothing to change in your account: AWS did not answer in time. Check again in a minute.";
      return { cloudformation: wait, terraform: wait, console: wait };
    }
  }
}
