import type { webcrypto } from "node:crypto";
import type { PublicJwk } from "@flowstate/contracts/rest/identity/auth";
import { importJWK } from "jose";
import { type KeySet, publishedAt, signingKeyAt } from "./key-set.ts";
import type { KeyStore } from "./key-store.ts";

type CryptoKey = webcrypto.CryptoKey;
type SigningKey = { kid: string; key: CryptoKey };

/**
 * The process's view of the signing key set: loaded at boot, reloaded on a timer (and right after
 * this process rotates), so replicas pick up a rotation another replica wrote. Imported keys are
 * cached by kid; reloading does not re-import unchanged keys.
 */
export interface Keyring {
  signingKey(now: Date): Promise<SigningKey>;
  jwks(now: Date): { keys: PublicJwk[] };
  reload(): Promise<void>;
  current(): KeySet;
}

export async function createKeyring(store: KeyStore): Promise<Keyring> {
  let set = await store.load();
  const imported = new Map<string, CryptoKey>();
  return {
    async signingKey(now) {
      const k = signingKeyAt(set, now);
      if (!k) throw new Error("no signing key is active: the key set in Secrets Manager is inconsistent");
      let key = imported.get(k.kid);
      if (!key) {
        key = (await importJWK(k.private_jwk, "ES256")) as CryptoKey;
        imported.set(k.kid, key);
      }
      return { kid: k.kid, key };
    },
    jwks(now) {
      return { keys: publishedAt(set, now).map((k) => k.public_jwk as PublicJwk) };
    },
    async reload() {
      set = await store.load();
      const kids = new Set(set.keys.map((k) => k.kid));
      for (const kid of imported.keys()) if (!kids.has(kid)) imported.delete(kid);
    },
    current: () => set,
  };
}
