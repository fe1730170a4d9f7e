import { DATA_REGION, PARTNER_REGION } from "@flowstate/shared/aws/clients";

/**
 * What one deployment of Flowstate is: the names every resource derives from, the account, and the
 * few values only the operator knows (certificate, domains). `cdk deploy -c stage=prod -c …` fills
 * them (app.ts); the tests pass their own.
 */
export interface DeploySettings {
  prefix: string;
  stage: "dev" | "prod";
  /** Flowstate's own AWS account (the principals and every bucket name carry it). */
  account: string;
  /** ACM certificate in eu-central-1 covering both doors' host names. */
  certificateArn: string;
  /** The REST door's public host (edge-gateway), e.g. api.flowstate.example. */
  apiDomain: string;
  /** The MCP door's public host (mcp-gateway), e.g. mcp.flowstate.example. */
  mcpDomain: string;
  /** The SES v2 sender identity (an address or a domain verified in SES). */
  mailFrom: string;
  /** Where alarms are mailed (an SNS e-mail subscription); none: the topic only. */
  alarmEmail?: string | undefined;
  /**
   * connector-svc's PrivateLink endpoint service name (an output of the compute stack, known after
   * its first deploy); the us-east-1 handler reaches connector-svc's internal API through it. Unset:
   * the partner stack has no endpoint yet and its handler is deployed with no task running.
   */
  connectorEndpointService?: string | undefined;
}

export const regions = { data: DATA_REGION, partner: PARTNER_REGION } as const;

/** A test deployment: a placeholder account, the example domains and a certificate ARN of the right shape. */
export const exampleSettings = (over: Partial<DeploySettings> = {}): DeploySettings => ({
  prefix: "flowstate",
  stage: "prod",
  account: "111122223333",
  certificateArn: "arn:aws:acm:eu-central-1:111122223333:certificate/00000000-0000-4000-8000-000000000000",
  apiDomain: "api.flowstate.example",
  mcpDomain: "mcp.flowstate.example",
  mailFrom: "no-reply@flowstate.example",
  ...over,
});

/** The CDK context keys (`-c key=value`) that fill the settings; an unknown or missing one is an error at synth. */
export function settingsFromContext(get: (key: string) => unknown): DeploySettings {
  const read = (key: string, required = true): string | undefined => {
    const v = get(key);
    if (v === undefined || v === "") {
      if (required) throw new Error(`missing CDK context "${key}" (cdk deploy -c ${key}=…)`);
      return undefined;
    }
    return String(v);
  };
  const stage = read("stage");
  if (stage !== "dev" && stage !== "prod") throw new Error(`context "stage" must be dev or prod, not ${stage}`);
  const account = read("account")!;
  if (!/^\d{12}$/.test(account)) throw new Error(`context "account" must be a 12-digit account id`);
  return {
    prefix: read("prefix", false) ?? "flowstate",
    stage,
    account,
    certificateArn: read("certificateArn")!,
    apiDomain: read("apiDomain")!,
    mcpDomain: read("mcpDomain")!,
    mailFrom: read("mailFrom")!,
    alarmEmail: read("alarmEmail", false),
    connectorEndpointService: read("connectorEndpointService", false),
  };
}
