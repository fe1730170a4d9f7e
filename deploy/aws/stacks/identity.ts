import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { Stack, type StackProps } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import { acknowledge } from "../nag.ts";
import { type Grant, principalGrants, principalUsers, taskGrants } from "../permissions.ts";
import { type DeploymentNames, deployedServices } from "../services.ts";
import type { DeploySettings } from "../settings.ts";

/** `<prefix>-<stage>-<service>-task`: named, so the us-east-1 stack can use partner-inbound's by name. */
export const taskRoleName = (s: DeploySettings, service: string) => `${s.prefix}-${s.stage}-${service}-task`;

const render = (g: Grant) =>
  new iam.PolicyStatement({ sid: g.sid, actions: g.actions, resources: g.resources, conditions: g.conditions });

/**
 * A task role per service with only what permissions.ts grants it (its own queue, bucket, secrets,
 * key use), and the two principals connector-svc and offers-svc assume to reach a tenant's
 * MarketplaceConnector role (ADR 0006). IAM is global; the stack lives in eu-central-1.
 */
export class IdentityStack extends Stack {
  readonly taskRoles = new Map<FlowstateServiceName, iam.Role>();
  readonly principals: iam.Role[] = [];

  constructor(scope: Construct, id: string, props: StackProps & { settings: DeploySettings; names: DeploymentNames }) {
    super(scope, id, props);
    const { settings, names } = props;
    for (const service of deployedServices) {
      const role = new iam.Role(this, `Task-${service}`, {
        roleName: taskRoleName(settings, service),
        assumedBy: new iam.ServicePrincipal("ecs-tasks.amazonaws.com", {
          conditions: { StringEquals: { "aws:SourceAccount": settings.account } },
        }),
        description: `${service}: its own queues, buckets, secrets and key use only`,
      });
      const grants = taskGrants(settings, names, service);
      if (grants.length) {
        const policy = new iam.Policy(this, `Grants-${service}`, { statements: grants.map(render) });
        role.attachInlinePolicy(policy);
        acknowledgeWildcards(policy, grants);
      }
      this.taskRoles.set(service, role);
    }
    const users = principalUsers(deployedServices).map((s) => this.taskRoles.get(s)!);
    for (const [principal, roleName] of Object.entries(names.principalRoles)) {
      const role = new iam.Role(this, `Principal-${principal}`, {
        roleName,
        assumedBy: new iam.CompositePrincipal(...users.map((u) => new iam.ArnPrincipal(u.roleArn))),
        description: `Flowstate's ${principal} principal: what a tenant's MarketplaceConnector role trusts`,
      });
      const policy = new iam.Policy(this, `Grants-${principal}`, { statements: principalGrants().map(render) });
      role.attachInlinePolicy(policy);
      acknowledgeWildcards(policy, principalGrants());
      this.principals.push(role);
    }
  }
}

/**
 * The wildcards left are in resource names we do not own (a seller's account id), in the six
 * characters Secrets Manager appends to a secret's ARN, in object keys of one bucket, and in key ids
 * pinned by the `kms:ResourceAliases` condition: each acknowledged with that reason.
 */
function acknowledgeWildcards(policy: iam.Policy, grants: Grant[]): void {
  for (const resource of new Set(grants.flatMap((g) => g.resources))) {
    if (!resource.includes("*")) continue;
    const reason = resource.startsWith("arn:aws:iam::*")
      ? "the seller's account id is the tenant's: the role name, trust policy and external ID confine the call"
      : resource.includes(":kms:")
        ? "a key id is unknown before creation; the kms:ResourceAliases condition pins the data key"
        : resource.includes(":s3:::")
          ? "objects of this one bucket: the keys are tenant and job ids made at run time"
          : "the random six-character suffix Secrets Manager appends to this secret's name";
    acknowledge(policy, `AwsSolutions-IAM5[Resource::${resource}]`, reason);
  }
}
