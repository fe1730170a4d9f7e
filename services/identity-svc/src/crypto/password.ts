import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * Password hashing with Argon2id (RFC 9106) from Node 24's own crypto (`crypto.argon2`), no
 * native add-on. Parameters are OWASP's first recommendation for Argon2id (19 MiB, 2 passes, 1 lane,
 * https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html): about 30 ms
 * per hash on the reference machine. Hashes are PHC strings carrying their own parameters, so the
 * parameters can be raised later and old hashes still verify (and get rehashed at sign-in).
 */
export interface Argon2Params {
  memoryKiB: number;
  passes: number;
  parallelism: number;
}

export const DEFAULT_ARGON2: Argon2Params = { memoryKiB: 19_456, passes: 2, parallelism: 1 };

/**
 * True for parameters below every row of OWASP's Argon2id table (46 MiB × 1 pass … 7 MiB × 5
 * passes: memory × passes ≥ 35,840 KiB with at least 7 MiB). Such a cost is only for a test run.
 */
export const belowOwasp = (p: Argon2Params) => p.memoryKiB < 7_168 || p.memoryKiB * p.passes < 35_840;

/**
 * `ARGON2_PARAMS`: `m=<KiB>,t=<passes>,p=<lanes>`, the PHC string's own notation. Unset: OWASP's
 * (DEFAULT_ARGON2). The test run sets a cheap one (scripts/lib/test-environment.ts): the suite
 * hashes ~2,200 passwords, 45 CPU-seconds at OWASP's cost; identity-svc's config refuses a cost
 * below OWASP's outside `NODE_ENV=test`.
 */
export const argon2ParamsVar = z
  .string()
  .regex(/^m=\d{1,7},t=\d{1,2},p=\d{1,2}$/, "must be m=<KiB>,t=<passes>,p=<lanes>, e.g. m=19456,t=2,p=1")
  .transform((text): Argon2Params => {
    const [m, t, p] = text.split(",").map((part) => Number(part.slice(2)));
    return { memoryKiB: m!, passes: t!, parallelism: p! };
  })
  .refine((p) => p.passes >= 1 && p.parallelism >= 1 && p.memoryKiB >= 8 * p.parallelism, {
    error: "needs t >= 1, p >= 1 and m >= 8 KiB per lane (RFC 9106)",
  })
  .optional();
const TAG_LENGTH = 32;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

const derive = (password: string, salt: Buffer, p: Argon2Params): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    argon2(
      "argon2id",
      {
        message: password,
        nonce: salt,
        parallelism: p.parallelism,
        tagLength: TAG_LENGTH,
        memory: p.memoryKiB,
        passes: p.passes,
      },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );

const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");

/** @example const phc = await hashPassword("correct horse battery staple"); */
export async function hashPassword(password: string, params: Argon2Params = DEFAULT_ARGON2): Promise<string> {
  const salt = randomBytes(16);
  const tag = await derive(password, salt, params);
  return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(tag)}`;
}

/**
 * Constant-time check of a password against a PHC string. A malformed stored hash verifies as
 * false rather than throwing (it must never turn into a 500 that tells an attacker something).
 */
export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const m = PHC.exec(phc);
  if (!m) return false;
  const params = { memoryKiB: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) };
  const expected = Buffer.from(m[5]!, "base64");
  const actual = await derive(password, Buffer.from(m[4]!, "base64"), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when a stored hash was made with weaker (or simply other) parameters than today's. */
export function needsRehash(phc: string, params: Argon2Params = DEFAULT_ARGON2): boolean {
  const m = PHC.exec(phc);
  return (
    !m || Number(m[1]) !== params.memoryKiB || Number(m[2]) !== params.passes || Number(m[3]) !== params.parallelism
  );
}

/**
 * A hash of a random password, made once per process. Sign-in verifies against it when the e-mail
 * is unknown, so an unknown e-mail costs the same Argon2 time as a wrong password and response
 * timing does not reveal which addresses have accounts.
 */
export function createDummyHash(params: Argon2Params = DEFAULT_ARGON2): Promise<string> {
  return hashPassword(randomBytes(32).toString("base64url"), params);
}
