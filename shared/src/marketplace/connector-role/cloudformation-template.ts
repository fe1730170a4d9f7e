// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${…} here are CloudFormation Fn::Sub variables, not JS
import {
  EXTERNAL_ID_MAX,
  EXTERNAL_ID_MIN,
  EXTERNAL_ID_PATTERN,
  INLINE_POLICY_NAME,
  MARKETPLACE_REGION,
  POLICY_VERSION_LABEL,
  type PolicyVersion,
  permissionPolicy,
  ROLE_NAME,
  trustPolicyDocument,
} from "./policies.ts";

/*
 * The connector-role CloudFormation template as an object: deploy/connector-role/ writes it as the
 * YAML files tenants download, and connector-svc serves the current one as JSON to the console's
 * quick-create link (the tests there check the committed files parse into exactly this object).
 */

const PARTITION = "${AWS::Partition}";
const ACCOUNT = "${AWS::AccountId}";

/** Strings holding CloudFormation pseudo parameters need `Fn::Sub` (long form: plain YAML/JSON parsers read it). */
function substitutePseudoParameters(value: unknown): unknown {
  if (typeof value === "string") return value.includes("${AWS::") ? { "Fn::Sub": value } : value;
  if (Array.isArray(value)) return value.map(substitutePseudoParameters);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitutePseudoParameters(v)]));
  }
  return value;
}

/**
 * The connector-role stack as an object. The role and its inline policy are two resources
 * (`AWS::IAM::Role` + `AWS::IAM::Policy` naming the role) so that the 2026-08-31 migration is an
 * in-place update of the policy resource alone: the role resource is byte-identical in both
 * versions, which keeps its ARN, id and creation date. It also mirrors the Terraform module
 * (`aws_iam_role` + `aws_iam_role_policy`). `AWS::IAM::RolePolicy` would do the same on AWS, but
 * the local emulator (moto 5.2) does not implement it.
 */
export function connectorTemplate(version: PolicyVersion = "current"): Record<string, unknown> {
  return {
    AWSTemplateFormatVersion: "2010-09-09",
    Description: `Flowstate Marketplace connector role ${ROLE_NAME} (policy version ${POLICY_VERSION_LABEL[version]}). Deploy in the seller account, region ${MARKETPLACE_REGION}, with CAPABILITY_NAMED_IAM.`,
    Metadata: {
      "AWS::CloudFormation::Interface": {
        ParameterGroups: [
          {
            Label: { default: "Values shown by Flowstate (Settings, Marketplace)" },
            Parameters: ["FlowstatePrincipalArns", "ExternalId"],
          },
        ],
        ParameterLabels: {
          FlowstatePrincipalArns: { default: "Flowstate principal ARNs" },
          ExternalId: { default: "External ID" },
        },
      },
    },
    Parameters: {
      FlowstatePrincipalArns: {
        Type: "CommaDelimitedList",
        Description:
          "Comma-separated ARNs of the Flowstate roles allowed to assume this role (both <prefix>-<stage>-backend and <prefix>-<stage>-mcp-execution).",
      },
      ExternalId: {
        Type: "String",
        Description: "Your tenant's external ID, shown by Flowstate.",
        NoEcho: true,
        MinLength: EXTERNAL_ID_MIN,
        MaxLength: EXTERNAL_ID_MAX,
        AllowedPattern: EXTERNAL_ID_PATTERN,
        ConstraintDescription: `${EXTERNAL_ID_MIN} to ${EXTERNAL_ID_MAX} characters: letters, digits and +=,.@:/-_ (the STS ExternalId rule).`,
      },
    },
    Rules: {
      FlowstatePrincipalArnsListed: {
        Assertions: [
          {
            Assert: { "Fn::Not": [{ "Fn::Contains": [{ Ref: "FlowstatePrincipalArns" }, ""] }] },
            AssertDescription: "FlowstatePrincipalArns must list at least one ARN and no empty value.",
          },
          {
            Assert: { "Fn::Not": [{ "Fn::Contains": [{ Ref: "FlowstatePrincipalArns" }, "undefined"] }] },
            AssertDescription:
              'FlowstatePrincipalArns contains the literal "undefined": copy the ARNs shown by Flowstate.',
          },
        ],
      },
    },
    Resources: {
      MarketplaceConnectorRole: {
        Type: "AWS::IAM::Role",
        Properties: {
          RoleName: ROLE_NAME,
          Description: "Lets Flowstate manage AWS Marketplace private offers of this seller account.",
          AssumeRolePolicyDocument: trustPolicyDocument({ Ref: "FlowstatePrincipalArns" }, { Ref: "ExternalId" }),
        },
      },
      MarketplaceCatalogAccessPolicy: {
        Type: "AWS::IAM::Policy",
        Properties: {
          PolicyName: INLINE_POLICY_NAME,
          Roles: [{ Ref: "MarketplaceConnectorRole" }],
          PolicyDocument: substitutePseudoParameters(
            permissionPolicy({ partition: PARTITION, accountId: ACCOUNT, version }),
          ),
        },
      },
    },
    Outputs: {
      RoleArn: {
        Description: "Paste this ARN into Flowstate to connect.",
        Value: { "Fn::GetAtt": ["MarketplaceConnectorRole", "Arn"] },
      },
    },
  };
}
