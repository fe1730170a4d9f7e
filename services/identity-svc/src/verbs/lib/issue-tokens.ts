import type { TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import type { EntityManager } from "@mikro-orm/postgresql";
import { now, type ServiceContext } from "../../context.ts";
import { newRefreshToken, sha256 } from "../../crypto/secret-token.ts";
import { RefreshToken } from "../../db/entities.ts";
import { signAccessToken } from "../../tokens/access-token.ts";

/** Adds the next refresh token of a session's family to the unit of work; returns the plaintext. */
export function addRefreshToken(ctx: ServiceContext, em: EntityManager, sid: string): string {
  const token = newRefreshToken();
  em.create(RefreshToken, { token_hash: sha256(token), sid, created_at: now(ctx), spent_at: null });
  return token;
}

/** The token answer of sign-in and refresh. Signs after the commit, so no token outlives a rollback. */
export async function tokenResponse(
  ctx: ServiceContext,
  claims: { sub: string; sid: string; authTime: Date },
  refreshToken: string,
): Promise<TokenResponse> {
  const { token, expiresIn } = await signAccessToken(ctx.deps.keyring, ctx.deps.accessToken, claims, now(ctx));
  return { access_token: token, refresh_token: refreshToken, token_type: "Bearer", expires_in: expiresIn };
}
