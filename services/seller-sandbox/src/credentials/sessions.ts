import { randomBytes } from "node:crypto";

/** Credentials the sandbox's STS issued for one AssumeRole. */
export interface Session {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  roleArn: string;
  roleName: string;
  /** The seller account the role lives in: every call with these credentials acts there. */
  account: string;
  sessionName: string;
  /** `arn:aws:sts::<account>:assumed-role/<role>/<session>` */
  arn: string;
  assumedRoleId: string;
  /** On the seller account's clock. */
  expiresAt: number;
  /** Who assumed the role (Flowstate principal ARN). */
  sourceArn: string;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function token(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** `ASIA` + 16 (temporary keys start with ASIA on AWS), a 40-character secret, an opaque token. */
export function newCredentials(): Pick<Session, "accessKeyId" | "secretAccessKey" | "sessionToken"> {
  return {
    accessKeyId: `ASIA${token(UPPER, 16)}`,
    secretAccessKey: randomBytes(30).toString("base64"),
    sessionToken: `FwoGZXIvYXdzE${randomBytes(96).toString("base64")}`,
  };
}

/** `AROA` + 17, stable per role ARN so the same role always shows the same unique id. */
export function roleUniqueId(roleArn: string): string {
  let h = 2166136261;
  let out = "AROA";
  for (let i = 0; out.length < 21; i++) {
    h = Math.imul(h ^ roleArn.charCodeAt(i % roleArn.length), 16777619) >>> 0;
    out += UPPER[h % 32];
  }
  return out;
}

/**
 * Issued sessions by access key id. Expired ones are dropped when looked up, so an expired key
 * answers ExpiredToken for as long as it is remembered and the map cannot grow without bound.
 */
export class SessionStore {
  readonly #byKey = new Map<string, Session>();
  readonly #maxSessions: number;

  constructor(maxSessions = 100_000) {
    this.#maxSessions = maxSessions;
  }

  add(session: Session): void {
    if (this.#byKey.size >= this.#maxSessions) {
      const oldest = this.#byKey.keys().next().value;
      if (oldest) this.#byKey.delete(oldest);
    }
    this.#byKey.set(session.accessKeyId, session);
  }

  get(accessKeyId: string): Session | undefined {
    return this.#byKey.get(accessKeyId);
  }
}
