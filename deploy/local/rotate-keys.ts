/**
 * `npm run keys:rotate [pair…]`: rotates the per-pair assertion keys (ADR 0014) against the
 * configured endpoint, every pair when none is named. For each pair: previous = current, current =
 * the next generation derived from the master. Processes reload their keys within 60 s (or on
 * SIGHUP); until then signers still sign with the old key, which verifiers accept as `previous`.
 * The next rotation drops it, so wait at least one reload interval between two rotations.
 */
import { GetSecretValueCommand, PutSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { PairSecret, pairSecretAt } from "@flowstate/shared/auth/keyring";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { defineStack } from "./definition.ts";
import { readStackSettings } from "./settings.ts";

export interface RotateOptions {
  aws: AwsClients;
  prefix: string;
  stage: string;
  /** Pair ids to rotate; all of them when omitted. */
  pairs?: readonly string[];
}

/** Rotates the named pairs (or all); returns `pair: generation n → n+1` lines. */
export async function rotateKeys(o: RotateOptions): Promise<string[]> {
  const sm = o.aws.data("secretsmanager");
  const def = defineStack({ prefix: o.prefix, stage: o.stage, accountId: "000000000000", mailFrom: "unused@x.y" }, []);
  const unknown = (o.pairs ?? []).filter((id) => !def.keyPairs.some((p) => p.pairId === id));
  if (unknown.length) throw new Error(`no such key pair: ${unknown.join(", ")}`);
  const chosen = def.keyPairs.filter((p) => !o.pairs?.length || o.pairs.includes(p.pairId));
  const master = (await sm.send(new GetSecretValueCommand({ SecretId: def.keyMaster.name }))).SecretString!;
  return Promise.all(
    chosen.map(async (p) => {
      const now = PairSecret.parse(
        JSON.parse((await sm.send(new GetSecretValueCommand({ SecretId: p.name }))).SecretString!),
      );
      const next = pairSecretAt(master, p.pairId, now.current.generation + 1, now.current);
      await sm.send(new PutSecretValueCommand({ SecretId: p.name, SecretString: JSON.stringify(next) }));
      return `${p.pairId}: generation ${now.current.generation} → ${next.current.generation}`;
    }),
  );
}

if (import.meta.main) {
  const settings = readStackSettings();
  const aws = createAwsClients({ endpoint: settings.endpoint, allowed: ["secretsmanager"] });
  for (const line of await rotateKeys({
    aws,
    prefix: settings.prefix,
    stage: settings.stage,
    pairs: process.argv.slice(2),
  }))
    console.log(`  ${line}`);
}
