/**
 * Flowstate's own principals as the sandbox knows them: static access keys that stand for the
 * IAM roles `<prefix>-<stage>-backend` and `<prefix>-<stage>-mcp-execution` of Flowstate's AWS
 * account. A call signed with one of these keys is made by that role, as far as STS is concerned.
 */
export interface FlowstatePrincipal {
  name: "backend" | "mcp-execution";
  arn: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * The local defaults (README): fixed so that `npm start` and tests can sign as either principal
 * without configuration. They unlock nothing but this sandbox.
 */
export const DEFAULT_PRINCIPAL_KEYS = {
  backend: { accessKeyId: "AKIAFLOWSTATEBACKEND", secretAccessKey: "sandbox-backend-secret-access-key" },
  "mcp-execution": { accessKeyId: "AKIAFLOWSTATEMCPEXEC", secretAccessKey: "sandbox-mcp-execution-secret-access-key" },
} as const;

/**
 * DEFAULT_PRINCIPAL_KEYS in the variables the services that sign as Flowstate's principals read
 * (connector-svc, offers-svc: `PRINCIPAL_*`), for local stacks, tests and benches.
 */
export const DEFAULT_PRINCIPAL_KEYS_ENV = {
  PRINCIPAL_BACKEND_ACCESS_KEY_ID: DEFAULT_PRINCIPAL_KEYS.backend.accessKeyId,
  PRINCIPAL_BACKEND_SECRET_ACCESS_KEY: DEFAULT_PRINCIPAL_KEYS.backend.secretAccessKey,
  PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID: DEFAULT_PRINCIPAL_KEYS["mcp-execution"].accessKeyId,
  PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY: DEFAULT_PRINCIPAL_KEYS["mcp-execution"].secretAccessKey,
};

export interface PrincipalConfig {
  flowstateAccountId: string;
  prefix: string;
  stage: string;
  keys: Record<FlowstatePrincipal["name"], { accessKeyId: string; secretAccessKey: string }>;
}

/** `arn:aws:iam::<account>:role/<prefix>-<stage>-<name>` (docs/spec/decisions.md). */
export function principalArn(
  config: Pick<PrincipalConfig, "flowstateAccountId" | "prefix" | "stage">,
  name: FlowstatePrincipal["name"],
): string {
  return `arn:aws:iam::${config.flowstateAccountId}:role/${config.prefix}-${config.stage}-${name}`;
}

export function buildPrincipals(config: PrincipalConfig): Map<string, FlowstatePrincipal> {
  const names: FlowstatePrincipal["name"][] = ["backend", "mcp-execution"];
  return new Map(
    names.map((name) => [
      config.keys[name].accessKeyId,
      { name, arn: principalArn(config, name), ...config.keys[name] },
    ]),
  );
}
