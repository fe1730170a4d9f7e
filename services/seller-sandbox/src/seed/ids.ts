import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

function encode(bytes: Uint8Array, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[(bytes[i % bytes.length] as number) % ALPHABET.length];
  return out;
}

/**
 * Ids in the formats AWS shows (not specified by AWS, observed): `prod-` and `offer-` + 13,
 * `agmt-` + 25, change sets 25 lower-case alphanumerics.
 */
export const ID_LENGTH = { prod: 13, offer: 13, seller: 13, agmt: 25, changeSet: 25 } as const;

/** A random id with a prefix, for entities created at run time. */
export function randomId(prefix: string, length: number): string {
  const body = encode(randomBytes(length), length);
  return prefix ? `${prefix}-${body}` : body;
}

/** The same id for the same account and label on every run: the seed is reproducible. */
export function seededId(account: string, label: string, prefix: string, length: number): string {
  const body = encode(createHash("sha256").update(`${account}/${label}`).digest(), length);
  return prefix ? `${prefix}-${body}` : body;
}

/** A 12-digit AWS account id derived from a label (the seed's buyers). */
export function seededAccountId(account: string, label: string): string {
  const digest = createHash("sha256").update(`${account}/buyer/${label}`).digest();
  let out = "";
  for (let i = 0; i < 12; i++) out += String((digest[i] as number) % 10);
  return out.replace(/^0/, "1");
}
