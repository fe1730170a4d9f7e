import type { RequestContext } from "./conditions.ts";
import { type Decision, evaluatePolicies } from "./evaluate.ts";
import type { PolicyDocument, PolicyPrincipal, PolicyStatement } from "./policy-document.ts";

const ACCOUNT = /^\d{12}$/;

/** The account id of an IAM or STS ARN (`arn:aws:iam::123456789012:role/x` → `123456789012`). */
export function accountOf(arn: string): string | undefined {
  return arn.split(":")[4] || undefined;
}

/**
 * The ARN a trust policy names for a caller: an assumed-role session
 * (`arn:aws:sts::A:assumed-role/R/s`) is trusted as its role (`arn:aws:iam::A:role/R`).
 */
function roleArnOfSession(callerArn: string): string | undefined {
  const m = /^arn:([^:]+):sts::(\d{12}):assumed-role\/([^/]+)\/[^/]+$/.exec(callerArn);
  return m ? `arn:${m[1]}:iam::${m[2]}:role/${m[3]}` : undefined;
}

function awsPrincipalMatches(entry: string, callerArn: string): boolean {
  if (entry === "*") return true;
  const account = accountOf(callerArn);
  // An account id or `:root` trusts every principal of that account (subject to its own policies).
  if (ACCOUNT.test(entry)) return entry === account;
  if (/^arn:[^:]+:iam::\d{12}:root$/.test(entry)) return accountOf(entry) === account;
  if (entry === callerArn) return true;
  const asRole = roleArnOfSession(callerArn);
  if (!asRole) return false;
  // Roles may carry a path (role/team/R); the session ARN drops it.
  const name = asRole.slice(asRole.lastIndexOf("/") + 1);
  return accountOf(entry) === account && /:role\//.test(entry) && entry.endsWith(`/${name}`);
}

export function principalMatches(principal: PolicyPrincipal | undefined, callerArn: string): boolean {
  if (principal === undefined) return false;
  if (principal === "*") return true;
  return (principal["AWS"] ?? []).some((e) => awsPrincipalMatches(e, callerArn));
}

function principalTest(callerArn: string) {
  return (s: PolicyStatement) =>
    s.Principal !== undefined
      ? principalMatches(s.Principal, callerArn)
      : s.NotPrincipal !== undefined && !principalMatches(s.NotPrincipal, callerArn);
}

/**
 * Evaluates a role's trust policy for `sts:AssumeRole` by `callerArn` with the given context
 * (`sts:ExternalId`, `aws:PrincipalArn`, ...). Cross-account access also needs the caller's own
 * identity policy to allow the call; the sandbox treats Flowstate's principals as allowed there.
 *
 * @example
 * evaluateTrust(trust, "arn:aws:iam::123456789012:role/flowstate-dev-backend", roleArn, { "sts:ExternalId": ["abc"] });
 */
export function evaluateTrust(
  trust: PolicyDocument,
  callerArn: string,
  roleArn: string,
  context: RequestContext,
  action = "sts:AssumeRole",
): Decision {
  return evaluatePolicies([trust], { action, resource: roleArn, context }, principalTest(callerArn)).decision;
}
