import { principalArn } from "@flowstate/shared/marketplace/principals";
import type { ConnectorSettings } from "../deps.ts";
import type { FixContext } from "../health/fixes.ts";

/** The stack name the quick-create link proposes (and the fixes name). */
export const STACK_NAME = "flowstate-marketplace-connector";

const USED_BY: Record<string, string> = {
  backend: "REST API, web app, CRM card",
  "mcp-execution": "MCP tools",
};

/** Every principal the tenant's role must trust, from configuration (the list can grow). */
export function principalsOf(settings: ConnectorSettings): { name: string; arn: string; used_by: string }[] {
  const names = { accountId: settings.flowstateAccountId, prefix: settings.prefix, stage: settings.stage };
  return settings.principals.map((name) => ({
    name,
    arn: principalArn(names, name),
    used_by: USED_BY[name] ?? "Flowstate",
  }));
}

/** The account id inside a role ARN (validated upstream by RoleArn). */
export const accountOfRoleArn = (roleArn: string): string => roleArn.split(":")[4] ?? "";

export function fixContext(settings: ConnectorSettings, roleArn: string): FixContext {
  return {
    roleArn,
    principalArns: principalsOf(settings).map((p) => p.arn),
    stackName: STACK_NAME,
    templateUrl: settings.templateUrl,
    moduleSource: settings.terraformModuleSource,
    moduleVersion: settings.terraformModuleVersion,
    accountId: accountOfRoleArn(roleArn),
  };
}
