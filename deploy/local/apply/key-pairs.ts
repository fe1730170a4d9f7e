import { CreateSecretCommand, GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { pairSecretAt } from "@flowstate/shared/auth/keyring";
import type { KeyPairSecretDefinition, SecretDefinition } from "../definition.ts";
import { type ApplyContext, isAwsError } from "./common.ts";
import { ensureSecret } from "./secrets.ts";

/**
 * Ensures the key master (a random 256-bit value, created once) and one secret per key pair,
 * holding generation 1 derived from the master (ADR 0014). An existing pair secret is never
 * touched: it may be mid-rotation, and running processes hold its keys; rotation is
 * `npm run keys:rotate` (deploy/local/rotate-keys.ts). Returns pair id → secret ARN.
 */
export async function ensureKeyPairs(
  ctx: ApplyContext,
  master: SecretDefinition,
  pairs: readonly KeyPairSecretDefinition[],
  keyArn: string,
): Promise<Record<string, string>> {
  const sm = ctx.aws.data("secretsmanager");
  await ensureSecret(ctx, master, keyArn);
  const masterValue = (await sm.send(new GetSecretValueCommand({ SecretId: master.name }))).SecretString!;
  const arns = await Promise.all(
    pairs.map(async (p) => {
      try {
        const created = await sm.send(
          new CreateSecretCommand({
            Name: p.name,
            Description: `Assertion key of ${p.pairId} (ADR 0014)`,
            KmsKeyId: keyArn,
            SecretString: JSON.stringify(pairSecretAt(masterValue, p.pairId, 1)),
          }),
        );
        ctx.changes.push(`created secret ${p.name}`);
        return [p.pairId, created.ARN!] as const;
      } catch (err) {
        // Already there (an earlier run, a concurrent one, or mid-rotation): its value stands.
        if (!isAwsError(err, ["ResourceExistsException"])) throw err;
        const existing = await sm.send(new GetSecretValueCommand({ SecretId: p.name }));
        return [p.pairId, existing.ARN!] as const;
      }
    }),
  );
  return Object.fromEntries(arns);
}
