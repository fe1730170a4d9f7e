import { GetSecretValueCommand, type SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

/**
 * The string value of a Secrets Manager secret (a key pair, identity-svc's throttle key) read at boot.
 * A secret stored as binary has no string: that is a deployment error, so it throws rather than
 * letting the service start with an empty key. Takes the client main.ts built, so the region stays
 * the factory's and the residency scan still sees which services call Secrets Manager.
 *
 * @example
 * const secret = await readSecretString(aws.data("secretsmanager"), config.SIGN_IN_THROTTLE_SECRET_ID);
 */
export async function readSecretString(secrets: SecretsManagerClient, secretId: string): Promise<string> {
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error(`secret ${secretId} has no SecretString`);
  return SecretString;
}
