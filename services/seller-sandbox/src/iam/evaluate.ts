import { conditionHolds, type RequestContext, UnsupportedConditionOperator } from "./conditions.ts";
import type { PolicyDocument, PolicyStatement } from "./policy-document.ts";
import { actionMatches, arnMatches } from "./wildcard.ts";

export type Decision = "Allow" | "ExplicitDeny" | "ImplicitDeny";

export interface AuthorizationRequest {
  /** `service:Action`, e.g. `aws-marketplace:DescribeEntity`. */
  action: string;
  /** The resource ARN, or `*` for actions that take no resource (ListEntities, SearchAgreements). */
  resource: string;
  context: RequestContext;
}

/** Extra test on a statement's Principal; identity policies have none and pass it. */
export type PrincipalTest = (statement: PolicyStatement) => boolean;

function actionApplies(s: PolicyStatement, action: string): boolean {
  if (s.Action) return s.Action.some((p) => actionMatches(p, action));
  if (s.NotAction) return !s.NotAction.some((p) => actionMatches(p, action));
  return false;
}

function resourceApplies(s: PolicyStatement, resource: string): boolean {
  // A trust policy has no Resource element: the role itself is the resource.
  if (!s.Resource && !s.NotResource) return true;
  if (s.Resource) return s.Resource.some((p) => p === "*" || (resource !== "*" && arnMatches(p, resource)));
  return !(s.NotResource ?? []).some((p) => p === "*" || (resource !== "*" && arnMatches(p, resource)));
}

function applies(s: PolicyStatement, req: AuthorizationRequest, principal: PrincipalTest | undefined): boolean {
  if (!actionApplies(s, req.action) || !resourceApplies(s, req.resource)) return false;
  if (principal && !principal(s)) return false;
  try {
    return conditionHolds(s.Condition, req.context);
  } catch (err) {
    // An operator we do not implement: fail closed (an Allow does not apply, a Deny does).
    if (err instanceof UnsupportedConditionOperator) return s.Effect === "Deny";
    throw err;
  }
}

/**
 * IAM's evaluation for one principal's policies: an applicable Deny wins, otherwise an applicable
 * Allow allows, otherwise the request is implicitly denied.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
 *
 * @example
 * evaluatePolicies([inlinePolicy], { action: "aws-marketplace:ListEntities", resource: "*", context: {} });
 * // → { decision: "Allow", sid: "MarketplaceCatalogList" }
 */
export function evaluatePolicies(
  policies: readonly PolicyDocument[],
  req: AuthorizationRequest,
  principal?: PrincipalTest,
): { decision: Decision; sid?: string | undefined } {
  let allowed: PolicyStatement | undefined;
  for (const policy of policies) {
    for (const s of policy.Statement) {
      if (!applies(s, req, principal)) continue;
      if (s.Effect === "Deny") return { decision: "ExplicitDeny", sid: s.Sid };
      allowed ??= s;
    }
  }
  return allowed ? { decision: "Allow", sid: allowed.Sid } : { decision: "ImplicitDeny" };
}
