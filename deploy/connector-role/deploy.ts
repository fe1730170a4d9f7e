import { readFileSync } from "node:fs";
import {
  type CloudFormationClient,
  CreateStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type Parameter,
  type Stack,
  UpdateStackCommand,
} from "@aws-sdk/client-cloudformation";
import type { PolicyVersion } from "@flowstate/shared/marketplace/connector-role/policies";
import { TEMPLATE_FILES } from "./cloudformation.ts";

export interface ConnectorStackInput {
  /** A client acting in the seller account (us-east-1 on AWS). */
  cloudformation: CloudFormationClient;
  stackName: string;
  principalArns: readonly string[];
  externalId: string;
  /** Which committed template to deploy; default `current`. */
  version?: PolicyVersion;
  /** How long to wait for the stack; default 60 s (moto finishes within the call). */
  timeoutMs?: number;
}

/** The committed template file's text: tests deploy exactly what tenants download. */
export function templateBody(version: PolicyVersion = "current"): string {
  return readFileSync(new URL(TEMPLATE_FILES[version], import.meta.url), "utf8");
}

// Values are not checked here on purpose: tests use this helper to show what the template and
// the emulator do with bad input.
function parameters(principalArns: readonly string[] | undefined, externalId: string | undefined): Parameter[] {
  return [
    principalArns
      ? { ParameterKey: "FlowstatePrincipalArns", ParameterValue: principalArns.join(",") }
      : { ParameterKey: "FlowstatePrincipalArns", UsePreviousValue: true },
    externalId !== undefined
      ? { ParameterKey: "ExternalId", ParameterValue: externalId }
      : { ParameterKey: "ExternalId", UsePreviousValue: true },
  ];
}

/**
 * Creates the connector-role stack, waits for CREATE_COMPLETE and returns the `RoleArn` output.
 * Throws with the stack's status and failure reasons otherwise.
 *
 * @example
 * const roleArn = await deployConnectorStack({
 *   cloudformation: new CloudFormationClient({ region: "us-east-1", endpoint, credentials: sellerCredentials }),
 *   stackName: "flowstate-connector",
 *   principalArns: [backendArn, mcpExecutionArn],
 *   externalId,
 *   version: "legacy",
 * });
 */
export async function deployConnectorStack(input: ConnectorStackInput): Promise<string> {
  await input.cloudformation.send(
    new CreateStackCommand({
      StackName: input.stackName,
      TemplateBody: templateBody(input.version),
      Parameters: parameters(input.principalArns, input.externalId),
      // The role has a fixed name (interface.md §2.2), which CloudFormation only creates when acknowledged.
      Capabilities: ["CAPABILITY_NAMED_IAM"],
    }),
  );
  const stack = await waitForStack(input.cloudformation, input.stackName, "CREATE_COMPLETE", input.timeoutMs);
  return roleArnOutput(stack);
}

export interface ConnectorStackUpdate extends Omit<ConnectorStackInput, "principalArns" | "externalId"> {
  /** Omitted: the stack keeps its previous value (as the migration of interface.md §9 expects). */
  principalArns?: readonly string[];
  externalId?: string;
}

/**
 * Updates the stack to the given template version (the policy migration of interface.md §9),
 * waits for UPDATE_COMPLETE and returns the `RoleArn` output. "No updates are to be performed"
 * counts as success: re-running the migration is harmless.
 */
export async function updateConnectorStack(input: ConnectorStackUpdate): Promise<string> {
  try {
    await input.cloudformation.send(
      new UpdateStackCommand({
        StackName: input.stackName,
        TemplateBody: templateBody(input.version),
        Parameters: parameters(input.principalArns, input.externalId),
        Capabilities: ["CAPABILITY_NAMED_IAM"],
      }),
    );
  } catch (error) {
    if (!(error instanceof Error && /No updates are to be performed/i.test(error.message))) throw error;
    return roleArnOutput(await describeStack(input.cloudformation, input.stackName));
  }
  const stack = await waitForStack(input.cloudformation, input.stackName, "UPDATE_COMPLETE", input.timeoutMs);
  return roleArnOutput(stack);
}

async function describeStack(cloudformation: CloudFormationClient, stackName: string): Promise<Stack> {
  const { Stacks } = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
  const stack = Stacks?.[0];
  if (!stack) throw new Error(`stack ${stackName} not found`);
  return stack;
}

async function waitForStack(
  cloudformation: CloudFormationClient,
  stackName: string,
  goal: "CREATE_COMPLETE" | "UPDATE_COMPLETE",
  timeoutMs = 60_000,
): Promise<Stack> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 2_000)) {
    const stack = await describeStack(cloudformation, stackName);
    const status = stack.StackStatus ?? "";
    if (status === goal) return stack;
    if (!status.endsWith("_IN_PROGRESS") || status.includes("ROLLBACK")) {
      throw new Error(`stack ${stackName} is ${status}, not ${goal}: ${await failureReasons(cloudformation, stack)}`);
    }
    if (Date.now() > deadline) throw new Error(`stack ${stackName} still ${status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

async function failureReasons(cloudformation: CloudFormationClient, stack: Stack): Promise<string> {
  const { StackEvents = [] } = await cloudformation.send(new DescribeStackEventsCommand({ StackName: stack.StackId }));
  const reasons = StackEvents.filter((e) => e.ResourceStatus?.endsWith("FAILED")).map(
    (e) => `${e.LogicalResourceId}: ${e.ResourceStatusReason}`,
  );
  return [stack.StackStatusReason, ...reasons].filter(Boolean).join("; ") || "no reason given";
}

function roleArnOutput(stack: Stack): string {
  const arn = stack.Outputs?.find((o) => o.OutputKey === "RoleArn")?.OutputValue;
  if (!arn) throw new Error(`stack ${stack.StackName} has no RoleArn output`);
  return arn;
}
