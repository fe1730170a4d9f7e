import type { SandboxDeps } from "../context.ts";
import type { Caller } from "../credentials/authenticate.ts";
import type { RequestContext } from "../iam/conditions.ts";
import { evaluatePolicies } from "../iam/evaluate.ts";
import { ApiError } from "./api-error.ts";

/** `arn:aws:aws-marketplace:us-east-1:<account>:AWSMarketplace/<kind>/<id>` (Service Authorization Reference). */
export function marketplaceArn(account: string, kind: string, id: string): string {
  return `arn:aws:aws-marketplace:us-east-1:${account}:AWSMarketplace/${kind}/${id}`;
}

/**
 * Checks one action on one resource against the calling role's identity policies, as IAM would,
 * and throws AWS's AccessDeniedException otherwise. Flowstate's own principals have no
 * Marketplace permissions in a seller's account, so they are always refused here.
 *
 * @example
 * await authorize(deps, caller, "aws-marketplace:DescribeEntity", marketplaceArn(acct, "Offer", id));
 */
export async function authorize(
  deps: SandboxDeps,
  caller: Caller,
  action: string,
  resource: string,
  context: RequestContext = {},
): Promise<void> {
  const role = caller.kind === "session" ? await deps.roles.get(caller.session.roleArn) : undefined;
  const fullContext: RequestContext = {
    "aws:PrincipalArn": [caller.kind === "session" ? caller.session.roleArn : caller.arn],
    "aws:PrincipalAccount": [caller.account],
    "aws:RequestedRegion": ["us-east-1"],
    "aws:SecureTransport": ["false"],
    ...context,
  };
  const { decision } = role
    ? evaluatePolicies(role.policies, { action, resource, context: fullContext })
    : { decision: "ImplicitDeny" };
  if (decision === "Allow") return;
  const on = resource === "*" ? "" : ` on resource: ${resource}`;
  const why =
    decision === "ExplicitDeny"
      ? "with an explicit deny in an identity-based policy"
      : `because no identity-based policy allows the ${action} action`;
  throw new ApiError(
    403,
    "AccessDeniedException",
    `User: ${caller.arn} is not authorized to perform: ${action}${on} ${why}`,
  );
}
