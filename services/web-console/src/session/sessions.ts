import { type ConsoleDeps, tableOf } from "../deps.ts";
import { randomToken, sha256 } from "./seal.ts";

/** What a request knows of its session once loaded: never the cookie's id itself beyond the request. */
export interface Session {
  idHash: string;
  sub: string;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  signedInAt: Date;
  expiresAt: Date;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

type Row = {
  id_hash: string;
  sub: string;
  tokens: Buffer;
  access_expires_at: Date;
  signed_in_at: Date;
  expires_at: Date;
};

const sealTokens = (deps: ConsoleDeps, idHash: string, t: Tokens) =>
  deps.sealer.seal(JSON.stringify({ a: t.access_token, r: t.refresh_token }), `session:${idHash}`);

/** Opens a session for `sub` with its first tokens; answers the cookie's value (the only copy of the id). */
export async function createSession(
  deps: ConsoleDeps,
  input: { sub: string; tokens: Tokens; signedInAt: Date },
): Promise<string> {
  const id = randomToken();
  const idHash = sha256(id);
  const at = deps.clock();
  const em = deps.orm.em.fork();
  // Expired sessions (a browser closed without signing out keeps its row, sealed tokens and all)
  // are swept here, a batch at a time, as beginSignIn sweeps abandoned sign-ins: no timer, and the
  // table stays the size of the live sessions.
  await em.execute(
    `DELETE FROM ${tableOf(deps, "console_session")} WHERE id_hash IN (
       SELECT id_hash FROM ${tableOf(deps, "console_session")} WHERE expires_at < ? LIMIT 100 FOR UPDATE SKIP LOCKED)`,
    [at],
  );
  await em.execute(
    `INSERT INTO ${tableOf(deps, "console_session")} (id_hash, sub, tokens, access_expires_at, signed_in_at, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      idHash,
      input.sub,
      sealTokens(deps, idHash, input.tokens),
      new Date(at.getTime() + input.tokens.expires_in * 1000),
      input.signedInAt,
      at,
      new Date(at.getTime() + deps.sessionTtlMs),
    ],
  );
  return id;
}

function toSession(deps: ConsoleDeps, row: Row): Session | null {
  const opened = deps.sealer.open(Buffer.from(row.tokens), `session:${row.id_hash}`);
  if (opened === null) return null;
  const { a, r } = JSON.parse(opened) as { a: string; r: string };
  return {
    idHash: row.id_hash,
    sub: row.sub,
    accessToken: a,
    refreshToken: r,
    accessExpiresAt: new Date(row.access_expires_at),
    signedInAt: new Date(row.signed_in_at),
    expiresAt: new Date(row.expires_at),
  };
}

/** The live session behind a cookie value, or null (unknown, ended, expired, or sealed by another key). */
export async function loadSession(deps: ConsoleDeps, cookie: string | undefined): Promise<Session | null> {
  if (!cookie || cookie.length > 100) return null;
  const rows = await deps.orm.em
    .fork()
    .execute<Row[]>(`SELECT * FROM ${tableOf(deps, "console_session")} WHERE id_hash = ? AND expires_at > ?`, [
      sha256(cookie),
      deps.clock(),
    ]);
  return rows[0] ? toSession(deps, rows[0]) : null;
}

/**
 * Replaces the session's tokens by the answer of a refresh, under a row lock taken before the
 * refresh is sent: identity-svc rotates refresh tokens strictly (a spent one revokes the whole
 * family), so two requests of one browser must never both spend the same token. The second one
 * waits for the lock, finds fresh tokens and uses them.
 */
export async function refreshSession(
  deps: ConsoleDeps,
  idHash: string,
  refresh: (refreshToken: string) => Promise<Tokens | null>,
  freshForMs: number,
): Promise<Session | null> {
  return deps.orm.em.fork().transactional(async (em) => {
    const rows = await em.execute<Row[]>(
      `SELECT * FROM ${tableOf(deps, "console_session")} WHERE id_hash = ? AND expires_at > ? FOR UPDATE`,
      [idHash, deps.clock()],
    );
    const current = rows[0] ? toSession(deps, rows[0]) : null;
    if (current === null) return null;
    if (current.accessExpiresAt.getTime() - deps.clock().getTime() > freshForMs) return current;
    const tokens = await refresh(current.refreshToken);
    if (tokens === null) {
      await em.execute(`DELETE FROM ${tableOf(deps, "console_session")} WHERE id_hash = ?`, [idHash]);
      return null;
    }
    const accessExpiresAt = new Date(deps.clock().getTime() + tokens.expires_in * 1000);
    await em.execute(
      `UPDATE ${tableOf(deps, "console_session")} SET tokens = ?, access_expires_at = ? WHERE id_hash = ?`,
      [sealTokens(deps, idHash, tokens), accessExpiresAt, idHash],
    );
    return { ...current, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, accessExpiresAt };
  });
}

/** Ends one session (sign-out), or every session of an account (its deletion): refused at the next request. */
export async function endSessions(deps: ConsoleDeps, by: { idHash: string } | { sub: string }): Promise<void> {
  const [column, value] = "idHash" in by ? ["id_hash", by.idHash] : ["sub", by.sub];
  await deps.orm.em.fork().execute(`DELETE FROM ${tableOf(deps, "console_session")} WHERE ${column} = ?`, [value]);
}
