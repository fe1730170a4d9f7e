/**
 * The one source of truth for the tenant's `MarketplaceConnector` role (interface.md §2.2, §5.1,
 * §5.2, §9). The CloudFormation templates, the Terraform module's policy templates and the JSON of
 * the console guide are all rendered from these functions (`deploy/connector-role/generate.ts`), and
 * the tests there check the committed files byte for byte, so the three onboarding paths cannot
 * drift apart; connector-svc builds its onboarding bundle and health fixes from the same functions.
 * Here, below both, because deploy/ may import a service's layer but a service may not import deploy/.
 *
 * The documents are generic in their leaf values on purpose: each path plugs in its own way of
 * saying "the seller's account" (`${AWS::AccountId}` in CloudFormation, `${account_id}` in a
 * Terraform template, `<YOUR_ACCOUNT_ID>` in the console guide, a real id in tests).
 */

export const ROLE_NAME = "MarketplaceConnector";
export const INLINE_POLICY_NAME = "MarketplaceCatalogAccess";
/** The Catalog API exists only in us-east-1, so the entity ARNs are pinned there. */
export const MARKETPLACE_REGION = "us-east-1";
export const IAM_POLICY_VERSION = "2012-10-17";
/** What the console guide and the onboarding bundle show where the seller's account id goes. */
export const ACCOUNT_PLACEHOLDER = "<YOUR_ACCOUNT_ID>";

/**
 * `legacy`: stacks deployed before 2026-08-31 (no `MarketplaceAgreementRead`, no `Seller` scope).
 * `current`: the policy of 2026-08-31 and later (interface.md §9).
 */
export type PolicyVersion = "current" | "legacy";
export const POLICY_VERSIONS: readonly PolicyVersion[] = ["current", "legacy"];
export const POLICY_VERSION_LABEL: Record<PolicyVersion, string> = {
  current: "2026-08-31",
  legacy: "before 2026-08-31",
};

/** Catalog entity kinds that `MarketplaceCatalogManage` is scoped to, in the order of §5.2. */
export const ENTITY_KINDS: Record<PolicyVersion, readonly string[]> = {
  current: ["SaaSProduct", "Offer", "ChangeSet", "Seller"],
  legacy: ["SaaSProduct", "Offer", "ChangeSet"],
};

/**
 * STS's own constraint on `ExternalId` (2..1224 of `[\w+=,.@:\/-]`). Kept as parts because
 * Terraform's RE2 refuses repeat counts above 1000, so the Terraform validation checks the length
 * with `length()` and the characters with this class.
 */
export const EXTERNAL_ID_CHARS = "[\\w+=,.@:/-]";
export const EXTERNAL_ID_MIN = 2;
export const EXTERNAL_ID_MAX = 1224;
export const EXTERNAL_ID_PATTERN = `^${EXTERNAL_ID_CHARS}{${EXTERNAL_ID_MIN},${EXTERNAL_ID_MAX}}$`;

export interface Statement<T = string> {
  Sid?: string;
  Effect: "Allow";
  Principal?: { AWS: unknown };
  Action: string | string[];
  Resource?: T | T[];
  Condition?: Record<string, Record<string, unknown>>;
}
export interface PolicyDocument<T = string> {
  Version: typeof IAM_POLICY_VERSION;
  Statement: Statement<T>[];
}

/** `arn:<partition>:aws-marketplace:us-east-1:<account>:AWSMarketplace/<kind>/*` (decisions.md). */
export function entityArnPattern(partition: string, accountId: string, kind: string): string {
  return `arn:${partition}:aws-marketplace:${MARKETPLACE_REGION}:${accountId}:AWSMarketplace/${kind}/*`;
}

/** The statement that the 2026-08-31 migration adds; the console guide shows it on its own. */
export function agreementReadStatement(): Statement {
  return {
    Sid: "MarketplaceAgreementRead",
    Effect: "Allow",
    Action: "aws-marketplace:SearchAgreements",
    // The Agreement API has no resource ARNs (Service Authorization Reference), hence "*".
    Resource: "*",
    Condition: {
      // AgreementType is ArrayOfString, so the set operator; PartyType is a plain String.
      "ForAllValues:StringEquals": { "aws-marketplace:AgreementType": ["PurchaseAgreement"] },
      StringEquals: { "aws-marketplace:PartyType": "Proposer" },
    },
  };
}

/**
 * The inline policy `MarketplaceCatalogAccess` (interface.md §5.2) for one seller account.
 *
 * @example
 * permissionPolicy({ partition: "aws", accountId: "123456789012" });
 * permissionPolicy({ partition: "aws", accountId: "<YOUR_ACCOUNT_ID>", version: "legacy" });
 */
export function permissionPolicy(input: {
  partition: string;
  accountId: string;
  version?: PolicyVersion;
}): PolicyDocument {
  const version = input.version ?? "current";
  const statements: Statement[] = [
    {
      Sid: "MarketplaceCatalogList",
      Effect: "Allow",
      Action: "aws-marketplace:ListEntities",
      Resource: "*",
    },
    {
      Sid: "MarketplaceCatalogManage",
      Effect: "Allow",
      Action: ["aws-marketplace:DescribeEntity", "aws-marketplace:StartChangeSet", "aws-marketplace:DescribeChangeSet"],
      Resource: ENTITY_KINDS[version].map((kind) => entityArnPattern(input.partition, input.accountId, kind)),
    },
  ];
  if (version === "current") statements.push(agreementReadStatement());
  return { Version: IAM_POLICY_VERSION, Statement: statements };
}

/**
 * The trust policy without input checks: the renderers pass placeholders (`{ Ref: ... }`, template
 * markers) here. Code holding real values uses {@link trustPolicy}.
 */
export function trustPolicyDocument(principalArns: unknown, externalId: unknown): PolicyDocument {
  return {
    Version: IAM_POLICY_VERSION,
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: principalArns },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "sts:ExternalId": externalId } },
      },
    ],
  };
}

/**
 * The trust policy (interface.md §5.1) for real values; throws on the inputs that every onboarding
 * path rejects (an empty principal list, the literal "undefined", an external ID STS refuses).
 *
 * @example
 * trustPolicy({
 *   principalArns: ["arn:aws:iam::111122223333:role/flowstate-prod-backend", "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution"],
 *   externalId: "0b6c2c9e-0f55-4a8e-9d0c-7d1c1d2f3e4a",
 * });
 */
export function trustPolicy(input: { principalArns: readonly string[]; externalId: string }): PolicyDocument {
  const problem = principalArnsProblem(input.principalArns) ?? externalIdProblem(input.externalId);
  if (problem) throw new RangeError(problem);
  return trustPolicyDocument([...input.principalArns], input.externalId);
}

/** Why a principal list is refused, or undefined; the same rule as the Terraform/CloudFormation checks. */
export function principalArnsProblem(principalArns: readonly string[]): string | undefined {
  if (principalArns.length === 0) return "the list of Flowstate principal ARNs is empty";
  // A template rendered from an unset JS variable says "undefined"; IAM would reject it much later.
  if (principalArns.some((arn) => arn === "undefined" || arn === "")) {
    return 'the list of Flowstate principal ARNs contains "undefined" or an empty value';
  }
  return undefined;
}

/** Why an external ID is refused, or undefined (STS's `[\w+=,.@:\/-]{2,1224}`). */
export function externalIdProblem(externalId: string): string | undefined {
  return new RegExp(EXTERNAL_ID_PATTERN).test(externalId)
    ? undefined
    : `the external ID must be ${EXTERNAL_ID_MIN} to ${EXTERNAL_ID_MAX} characters of letters, digits and +=,.@:/-_`;
}

/** JSON as every path shows it: two-space indentation, no trailing newline. */
export function policyJson(document: unknown): string {
  return JSON.stringify(document, null, 2);
}
