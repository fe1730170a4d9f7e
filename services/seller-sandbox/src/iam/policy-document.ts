import { z } from "zod";

// IAM accepts a single string or a list wherever a list is allowed; normalising here keeps the
// evaluator free of that case. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html
const StringOrList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

const ConditionValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))])
  .transform((v) => (Array.isArray(v) ? v : [v]).map(String));

/** `{ "StringEquals": { "sts:ExternalId": "..." } }`: operator → key → allowed values. */
export const PolicyCondition = z.record(z.string(), z.record(z.string(), ConditionValue));
export type PolicyCondition = z.infer<typeof PolicyCondition>;

/** Principal element of a resource (trust) policy: `"*"` or `{ AWS | Service | Federated: ... }`. */
export const PolicyPrincipal = z.union([z.literal("*"), z.record(z.string(), StringOrList)]);
export type PolicyPrincipal = z.infer<typeof PolicyPrincipal>;

export const PolicyStatement = z.object({
  Sid: z.string().optional(),
  Effect: z.enum(["Allow", "Deny"]),
  Action: StringOrList.optional(),
  NotAction: StringOrList.optional(),
  Resource: StringOrList.optional(),
  NotResource: StringOrList.optional(),
  Principal: PolicyPrincipal.optional(),
  NotPrincipal: PolicyPrincipal.optional(),
  Condition: PolicyCondition.optional(),
});
export type PolicyStatement = z.infer<typeof PolicyStatement>;

export const PolicyDocument = z.object({
  Version: z.string().optional(),
  Id: z.string().optional(),
  Statement: z.union([PolicyStatement, z.array(PolicyStatement)]).transform((s) => (Array.isArray(s) ? s : [s])),
});
export type PolicyDocument = z.infer<typeof PolicyDocument>;

/**
 * Parses a policy as IAM returns it: `GetRole`/`GetRolePolicy` answer URL-encoded JSON (RFC 3986),
 * the console and templates give plain JSON. Throws on anything that is not a policy.
 *
 * @example
 * const trust = parsePolicyDocument(role.AssumeRolePolicyDocument!);
 */
export function parsePolicyDocument(text: string): PolicyDocument {
  const trimmed = text.trimStart();
  const json = trimmed.startsWith("{") ? trimmed : decodeURIComponent(trimmed);
  return PolicyDocument.parse(JSON.parse(json));
}
