import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import { KeySet, newStoredKey } from "./key-set.ts";

/**
 * Reads and writes the signing key set in Secrets Manager. First boot creates it; two replicas
 * booting at once both try `CreateSecret`, exactly one succeeds (it is atomic on the name) and the
 * other reads what the winner wrote. Rotation writes go through `rotateSigningKey`, which
 * serialises writers with a database advisory lock because Secrets Manager has no compare-and-set.
 */
export interface KeyStore {
  /** The secret's name, also the advisory-lock key that serialises rotations. */
  readonly id: string;
  load(): Promise<KeySet>;
  save(set: KeySet): Promise<void>;
}

export function secretsManagerKeyStore(client: SecretsManagerClient, secretId: string): KeyStore {
  const read = async (): Promise<KeySet | null> => {
    try {
      const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      return KeySet.parse(JSON.parse(out.SecretString ?? ""));
    } catch (err) {
      if (err instanceof ResourceNotFoundException) return null;
      throw err;
    }
  };
  return {
    id: secretId,
    async load() {
      const existing = await read();
      if (existing) return existing;
      const now = new Date();
      // The very first key signs at once (no token exists yet that a verifier could miss), and
      // "since the epoch" rather than "since now", so a replica whose clock runs slightly behind
      // the creator's still finds an active key.
      const first: KeySet = { version: 1, keys: [await newStoredKey(now, new Date(0))] };
      try {
        await client.send(
          new CreateSecretCommand({
            Name: secretId,
            SecretString: JSON.stringify(first),
            Description: "identity-svc access-token signing keys (ES256 JWKs)",
          }),
        );
        return first;
      } catch (err) {
        if (!(err instanceof ResourceExistsException)) throw err;
        const winner = await read();
        if (!winner) throw new Error("signing key secret exists but cannot be read");
        return winner;
      }
    },
    async save(set) {
      await client.send(
        new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(KeySet.parse(set)) }),
      );
    },
  };
}
