import type { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { Keyring, PairSecret } from "../auth/keyring.ts";
import type { Logger } from "../log/logger.ts";
import { readSecretString } from "./read-secret.ts";

/**
 * The Secrets Manager name of one pair's key (ADR 0014). Production task roles are granted
 * `secretsmanager:GetSecretValue` on exactly the names of `keyPairsOf(service)`.
 *
 * @example
 * keyPairSecretName("flowstate", "prod", "partner-inbound--connector-svc"); // "flowstate/prod/keys/partner-inbound--connector-svc"
 */
export const keyPairSecretName = (prefix: string, stage: string, pairId: string) => `${prefix}/${stage}/keys/${pairId}`;

export interface KeyringSource {
  /** The process's Secrets Manager client (the factory's, so its region is the data region). */
  secrets: SecretsManagerClient;
  prefix: string;
  stage: string;
  service: FlowstateServiceName;
}

/** Reads every pair `service` takes part in; throws when one is missing or malformed (a deployment error). */
export async function readKeyPairs(o: KeyringSource): Promise<Map<string, PairSecret>> {
  const pairs = keyPairsOf(o.service);
  const values = await Promise.all(
    pairs.map(async (p) => {
      const name = keyPairSecretName(o.prefix, o.stage, p.id);
      const parsed = PairSecret.safeParse(JSON.parse(await readSecretString(o.secrets, name)));
      if (!parsed.success) throw new Error(`secret ${name} is not a key pair ({current, previous?})`);
      return [p.id, parsed.data] as const;
    }),
  );
  return new Map(values);
}

export interface RunningKeyring {
  keyring: Keyring;
  /** Reads the pairs again now (what the timer and SIGHUP do); keeps the current keys when that fails. */
  reload(): Promise<void>;
  stop(): void;
}

/**
 * Loads the process's keyring at boot (throws if a key is missing: the process must not start
 * unable to sign or verify its calls), then reloads it every `reloadMs` (60 s) and on SIGHUP, so
 * a rotation (`npm run keys:rotate`) reaches every process without a restart: verifiers accept
 * the previous key until the next rotation, so a signer that reloads later is still accepted.
 *
 * @example
 * const keys = await startKeyring({ secrets: aws.data("secretsmanager"), prefix: config.SERVICE_PREFIX, stage: config.STAGE, service: "partner-inbound", logger });
 * await boot.serve(app, [() => keys.stop()]);
 */
export async function startKeyring(
  o: KeyringSource & { logger: Logger; reloadMs?: number; handleSignals?: boolean },
): Promise<RunningKeyring> {
  const keyring = new Keyring(o.service, await readKeyPairs(o));
  const reload = async () => {
    try {
      keyring.replace(await readKeyPairs(o));
    } catch (err) {
      o.logger.warn({ err }, "the keyring could not be reloaded; the current keys stay");
    }
  };
  const timer = setInterval(reload, o.reloadMs ?? 60_000);
  timer.unref();
  const onHup = () => void reload();
  if (o.handleSignals !== false) process.on("SIGHUP", onHup);
  return {
    keyring,
    reload,
    stop() {
      clearInterval(timer);
      process.off("SIGHUP", onHup);
    },
  };
}
