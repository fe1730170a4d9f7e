import { randomBytes } from "node:crypto";
import { CreateSecretCommand, DescribeSecretCommand } from "@aws-sdk/client-secrets-manager";
import type { SecretDefinition } from "../definition.ts";
import { type ApplyContext, isAwsError } from "./common.ts";

/**
 * Ensures the secret exists, holding a fresh random 256-bit key (base64url) the first time. An
 * existing secret is never overwritten: running services hold its value, and replacing it would
 * break every identity assertion in flight. Rotation is a separate, deliberate act.
 */
export async function ensureSecret(ctx: ApplyContext, def: SecretDefinition, keyArn: string): Promise<string> {
  const sm = ctx.aws.data("secretsmanager");
  try {
    return (await sm.send(new DescribeSecretCommand({ SecretId: def.name }))).ARN!;
  } catch (err) {
    if (!isAwsError(err, ["ResourceNotFoundException"])) throw err;
  }
  try {
    const created = await sm.send(
      new CreateSecretCommand({
        Name: def.name,
        Description: def.description,
        KmsKeyId: keyArn,
        SecretString: randomBytes(32).toString("base64url"),
      }),
    );
    ctx.changes.push(`created secret ${def.name}`);
    return created.ARN!;
  } catch (err) {
    // A concurrent bootstrap created it first; its value stands.
    if (!isAwsError(err, ["ResourceExistsException"])) throw err;
    return (await sm.send(new DescribeSecretCommand({ SecretId: def.name }))).ARN!;
  }
}
