import { MarketplaceAgreementClient } from "@aws-sdk/client-marketplace-agreement";
import { MarketplaceCatalogClient } from "@aws-sdk/client-marketplace-catalog";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import type { AwsCredentialIdentity } from "@smithy/types";
import { DEFAULT_PRINCIPAL_KEYS } from "../credentials/principals.ts";

export type PrincipalName = keyof typeof DEFAULT_PRINCIPAL_KEYS;

/** The static keys that stand for a Flowstate principal (defaults of the sandbox). */
export function principalCredentials(name: PrincipalName): AwsCredentialIdentity {
  return { ...DEFAULT_PRINCIPAL_KEYS[name] };
}

// One attempt: tests assert on the first answer, not on what the SDK's retries make of it.
const options = (endpoint: string, credentials: AwsCredentialIdentity) => ({
  region: "us-east-1",
  endpoint,
  credentials,
  maxAttempts: 1,
});

export function stsClient(endpoint: string, credentials: AwsCredentialIdentity): STSClient {
  return new STSClient(options(endpoint, credentials));
}

export function catalogClient(endpoint: string, credentials: AwsCredentialIdentity): MarketplaceCatalogClient {
  return new MarketplaceCatalogClient(options(endpoint, credentials));
}

export function agreementClient(endpoint: string, credentials: AwsCredentialIdentity): MarketplaceAgreementClient {
  return new MarketplaceAgreementClient(options(endpoint, credentials));
}

/**
 * Assumes the connector role as a Flowstate principal through the sandbox's STS, with the real
 * SDK, and returns the session credentials.
 *
 * @example
 * const creds = await assumeConnector(sandbox.endpoint, "backend", role.roleArn, role.externalId);
 */
export async function assumeConnector(
  endpoint: string,
  principal: PrincipalName,
  roleArn: string,
  externalId: string | undefined,
  durationSeconds?: number,
): Promise<AwsCredentialIdentity> {
  const sts = stsClient(endpoint, principalCredentials(principal));
  const out = await sts.send(
    new AssumeRoleCommand({
      RoleArn: roleArn,
      RoleSessionName: `test-${principal}`,
      ExternalId: externalId,
      DurationSeconds: durationSeconds,
    }),
  );
  sts.destroy();
  const c = out.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error("sandbox STS returned no credentials");
  // The sandbox must never log issued credentials; the test runner scans every log for these.
  recordSecret(c.SecretAccessKey);
  if (c.SessionToken) recordSecret(c.SessionToken);
  return {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    sessionToken: c.SessionToken,
    expiration: c.Expiration,
  };
}
