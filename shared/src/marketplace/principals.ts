import { AssumeRoleCommand, type STSClient } from "@aws-sdk/client-sts";
import type { Channel } from "@flowstate/contracts/internal/identity";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";

/**
 * Flowstate's own principals that reach a tenant's `MarketplaceConnector` role (interface.md §2.3):
 * `<prefix>-<stage>-backend` for REST (web app, CRM card, scripts) and
 * `<prefix>-<stage>-mcp-execution` for MCP tool calls. The tenant's trust policy decides which of
 * them may assume its role, so using the wrong one is a real difference, not a label.
 */
export const PRINCIPALS = ["backend", "mcp-execution"] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * The principal for a caller's channel, as the gateway signed it. No channel means the caller did
 * not come through a gateway (a platform component's own call): there is no principal to guess.
 *
 * @example
 * principalForChannel(assertion.channel); // "rest" → "backend", "mcp" → "mcp-execution"
 */
export function principalForChannel(channel: Channel | undefined): Principal {
  if (channel === "rest") return "backend";
  if (channel === "mcp") return "mcp-execution";
  throw new Error("the caller's channel is unknown: only calls forwarded by a gateway reach a seller account");
}

export interface PrincipalNames {
  /** Flowstate's AWS account id (the principals' account). */
  accountId: string;
  prefix: string;
  stage: string;
}

/** `arn:aws:iam::<account>:role/<prefix>-<stage>-<name>`; `name` may be any configured principal (the list can grow). */
export const principalArn = (names: PrincipalNames, name: string): string =>
  `arn:aws:iam::${names.accountId}:role/${names.prefix}-${names.stage}-${name}`;

export type PrincipalCredentials = Record<Principal, AwsCredentialIdentity | AwsCredentialIdentityProvider>;

/**
 * Credentials of each principal when this process is not itself running as it (production: the
 * service's own role from the SDK's default provider chain, `sts` an eu-central-1 data client):
 * the principal's role is assumed (role chaining; sessions last one hour) and the SDK refreshes it
 * five minutes before expiry, as it does for any provider that returns an `expiration`.
 *
 * @example
 * const principals = chainedPrincipalCredentials(aws.data("sts"), { accountId, prefix, stage });
 */
export function chainedPrincipalCredentials(sts: STSClient, names: PrincipalNames): PrincipalCredentials {
  const provider =
    (name: Principal): AwsCredentialIdentityProvider =>
    async () => {
      const out = await sts.send(
        new AssumeRoleCommand({ RoleArn: principalArn(names, name), RoleSessionName: `flowstate-${name}` }),
      );
      const c = out.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error(`STS returned no credentials for ${name}`);
      return {
        accessKeyId: c.AccessKeyId,
        secretAccessKey: c.SecretAccessKey,
        sessionToken: c.SessionToken,
        expiration: c.Expiration,
      };
    };
  return { backend: provider("backend"), "mcp-execution": provider("mcp-execution") };
}
