import { createHash } from "node:crypto";
import { CONSOLE_CALLBACK_PATH, CONSOLE_CLIENT_ID, REST_RESOURCE_PATH } from "@flowstate/contracts/rest/identity/oauth";
import { type ConsoleDeps, tableOf } from "../deps.ts";
import { randomToken, sha256 } from "./seal.ts";
import type { Tokens } from "./sessions.ts";

/** A sign-in in progress lives this long (identity-svc's interaction lives 10 minutes). */
const LOGIN_TTL_MS = 10 * 60_000;

/**
 * Starts a sign-in (authorization code + PKCE S256, ADR 0015): a random state (the browser keeps
 * it in a cookie; the row is keyed by its hash) and verifier (sealed in the row), and the URL of
 * identity-svc's sign-in page. The resource is the REST API; no scope or tenant is asked for.
 */
export async function beginSignIn(deps: ConsoleDeps, returnTo: string): Promise<{ state: string; url: string }> {
  const state = randomToken();
  const verifier = randomToken();
  const stateHash = sha256(state);
  const at = deps.clock();
  const em = deps.orm.em.fork();
  // Old, abandoned sign-ins are swept here rather than by a timer: the table stays small.
  await em.execute(`DELETE FROM ${tableOf(deps, "console_login")} WHERE created_at < ?`, [
    new Date(at.getTime() - LOGIN_TTL_MS),
  ]);
  await em.execute(
    `INSERT INTO ${tableOf(deps, "console_login")} (state_hash, verifier, return_to, created_at) VALUES (?, ?, ?, ?)`,
    [stateHash, deps.sealer.seal(verifier, `login:${stateHash}`), returnTo, at],
  );
  const q = new URLSearchParams({
    response_type: "code",
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: callbackUrl(deps),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state,
    resource: `${deps.publicOrigin}${REST_RESOURCE_PATH}`,
  });
  return { state, url: `${deps.publicOrigin}/oauth/authorize?${q}` };
}

export const callbackUrl = (deps: Pick<ConsoleDeps, "publicOrigin">) => `${deps.publicOrigin}${CONSOLE_CALLBACK_PATH}`;

/**
 * Finishes a sign-in: the state must be the one this browser's cookie holds (no login CSRF: a code
 * from someone else's sign-in is refused), the row is consumed either way, and the code is
 * exchanged at the token endpoint with the verifier. Null when anything does not match.
 */
export async function finishSignIn(
  deps: ConsoleDeps,
  input: { state: string | undefined; cookieState: string | undefined; code: string | undefined; requestId: string },
): Promise<{ tokens: Tokens; returnTo: string } | null> {
  const { state, cookieState, code } = input;
  if (!state || !code || !cookieState || state !== cookieState || state.length > 100 || code.length > 200) return null;
  const stateHash = sha256(state);
  const rows = await deps.orm.em
    .fork()
    .execute<{ verifier: Buffer; return_to: string; created_at: Date }[]>(
      `DELETE FROM ${tableOf(deps, "console_login")} WHERE state_hash = ? RETURNING verifier, return_to, created_at`,
      [stateHash],
    );
  const row = rows[0];
  if (!row || new Date(row.created_at).getTime() < deps.clock().getTime() - LOGIN_TTL_MS) return null;
  const verifier = deps.sealer.open(Buffer.from(row.verifier), `login:${stateHash}`);
  if (verifier === null) return null;
  const answer = await deps.api<Tokens>({
    method: "POST",
    path: "/oauth/token",
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: callbackUrl(deps),
      client_id: CONSOLE_CLIENT_ID,
      code_verifier: verifier,
    },
    requestId: input.requestId,
  });
  return answer.ok ? { tokens: answer.body, returnTo: row.return_to } : null;
}

/** A refresh (rotating); null when identity-svc refuses it (revoked, expired, account gone). */
export async function refreshTokens(deps: ConsoleDeps, refreshToken: string): Promise<Tokens | null> {
  const answer = await deps.api<Tokens>({
    method: "POST",
    path: "/oauth/token",
    form: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: CONSOLE_CLIENT_ID },
  });
  if (answer.ok) return answer.body;
  if (answer.problem.status >= 500) throw new Error(`token refresh failed: ${answer.problem.code}`);
  return null;
}

/** RFC 7009: revokes the whole grant (its token family) at identity-svc; sign-out calls it. */
export async function revokeGrant(deps: ConsoleDeps, refreshToken: string, requestId: string): Promise<boolean> {
  const answer = await deps.api({
    method: "POST",
    path: "/oauth/revoke",
    form: { token: refreshToken, token_type_hint: "refresh_token", client_id: CONSOLE_CLIENT_ID },
    requestId,
  });
  return answer.ok;
}
