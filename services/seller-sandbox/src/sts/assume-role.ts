import type { SandboxDeps } from "../context.ts";
import type { Caller } from "../credentials/authenticate.ts";
import { newCredentials, roleUniqueId } from "../credentials/sessions.ts";
import type { RequestContext } from "../iam/conditions.ts";
import { evaluatePolicies } from "../iam/evaluate.ts";
import { parseRoleArn } from "../iam/role-store.ts";
import { evaluateTrust } from "../iam/trust.ts";
import { nowOf } from "../seller/clock.ts";
import { parseAssumeRoleParams } from "./assume-role-params.ts";
import { StsError } from "./errors.ts";
import { elements } from "./xml.ts";

const ONE_HOUR = 3600;

function denied(caller: Caller, roleArn: string): StsError {
  // One message for every refusal (unknown role, principal not trusted, wrong or missing external
  // id), as AWS does: the caller learns nothing about which check failed.
  return new StsError(
    403,
    "AccessDenied",
    `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
  );
}

function trustContext(
  caller: Caller,
  params: { externalId?: string | undefined; roleSessionName: string },
  now: number,
): RequestContext {
  const principalArn = caller.kind === "session" ? caller.session.roleArn : caller.arn;
  return {
    "aws:PrincipalArn": [principalArn],
    "aws:PrincipalAccount": [caller.account],
    "aws:PrincipalType": [caller.kind === "session" ? "AssumedRole" : "Role"],
    "aws:CurrentTime": [new Date(now).toISOString()],
    "aws:EpochTime": [String(Math.floor(now / 1000))],
    "aws:SecureTransport": ["false"],
    "aws:RequestedRegion": ["us-east-1"],
    "sts:RoleSessionName": [params.roleSessionName],
    ...(params.externalId !== undefined ? { "sts:ExternalId": [params.externalId] } : {}),
  };
}

/**
 * STS AssumeRole against a role in the emulator's IAM: the trust policy decides (principal and
 * `sts:ExternalId`), DurationSeconds is bounded by the role's MaxSessionDuration (1 hour for
 * role chaining), and the answer carries fresh sandbox credentials that act in the role's account.
 */
export async function assumeRole(deps: SandboxDeps, caller: Caller, form: URLSearchParams): Promise<string> {
  const params = parseAssumeRoleParams(form);
  const target = parseRoleArn(params.roleArn);
  if (!target) throw denied(caller, params.roleArn);
  const seller = deps.sellers.get(target.account);
  const now = nowOf(seller);

  const role = await deps.roles.get(params.roleArn);
  if (!role) throw denied(caller, params.roleArn);
  const context = trustContext(caller, params, now);
  if (evaluateTrust(role.trust, caller.arn, role.arn, context) !== "Allow") throw denied(caller, params.roleArn);
  if (caller.kind === "session") {
    // Role chaining: the calling role's own policies must allow sts:AssumeRole as well.
    const own = await deps.roles.get(caller.session.roleArn);
    const req = { action: "sts:AssumeRole", resource: params.roleArn, context };
    if (!own || evaluatePolicies(own.policies, req).decision !== "Allow") throw denied(caller, params.roleArn);
  }

  const duration = params.durationSeconds ?? ONE_HOUR;
  if (caller.kind === "session" && duration > ONE_HOUR) {
    throw new StsError(
      400,
      "ValidationError",
      "The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.",
    );
  }
  if (duration > role.maxSessionDuration) {
    throw new StsError(
      400,
      "ValidationError",
      "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.",
    );
  }

  const credentials = newCredentials();
  const roleId = roleUniqueId(role.arn);
  const expiresAt = now + duration * 1000;
  const session = {
    ...credentials,
    roleArn: role.arn,
    roleName: role.name,
    account: role.account,
    sessionName: params.roleSessionName,
    arn: `arn:aws:sts::${role.account}:assumed-role/${role.name}/${params.roleSessionName}`,
    assumedRoleId: `${roleId}:${params.roleSessionName}`,
    expiresAt,
    sourceArn: caller.arn,
  };
  deps.sessions.add(session);
  return (
    `<AssumedRoleUser>${elements({ AssumedRoleId: session.assumedRoleId, Arn: session.arn })}</AssumedRoleUser>` +
    `<Credentials>${elements({
      AccessKeyId: credentials.accessKeyId,
      SecretAccessKey: credentials.secretAccessKey,
      SessionToken: credentials.sessionToken,
      Expiration: `${new Date(expiresAt).toISOString().slice(0, 19)}Z`,
    })}</Credentials>`
  );
}
