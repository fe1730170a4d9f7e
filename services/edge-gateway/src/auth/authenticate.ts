import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";

/** Who a public caller can be: a user's session or a tenant's API key (never a platform service). */
export type CallerIdentity = Exclude<VerifiedIdentity, { kind: "service" }>;

import type { ProblemCode, ProblemStatus } from "@flowstate/contracts/errors/codes";
import { invalidApiKey } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { type AccessState, apiKeyDigest } from "./access-state.ts";
import type { AccessTokenVerifier } from "./access-token.ts";
import type { Credential } from "./credential.ts";

type Code401 = { [C in ProblemCode]: ProblemStatus<C> extends 401 ? C : never }[ProblemCode];
const unauthenticated = (code: Code401, detail: string) => new DomainError("unauthenticated", code, detail);
export const missingCredential = () =>
  unauthenticated("UNAUTHENTICATED", "this route needs a credential: Authorization: Bearer <access token or API key>");
const sessionEnded = () =>
  unauthenticated("SESSION_REVOKED", "this session has ended or the account is disabled; sign in again");

/**
 * Turns a presented credential into the identity forwarded to services, checking revocation on
 * every request. The hot path (a token seen before, its session and membership cached) makes no
 * network call and verifies no signature; each of those answers is dropped by an invalidation.
 *
 * A session is refused when identity-svc no longer knows it, marks it inactive (sign-out, account
 * disabled or deleted), or the token was issued before the account's `tokens_valid_after`; `iat`
 * has one-second resolution, so a token from the very second of a revocation counts as before it
 * (identity-svc's own rule in its session-state verb).
 *
 * @example
 * const identity = await authenticate(credentialOf(c.req.header("authorization")), tokens, state);
 */
export async function authenticate(
  credential: Credential,
  tokens: AccessTokenVerifier,
  state: AccessState,
): Promise<CallerIdentity> {
  switch (credential.kind) {
    case "none":
      throw missingCredential();
    case "malformed":
      throw unauthenticated("INVALID_TOKEN", "the Authorization header is not a valid bearer credential");
    case "access_token": {
      state.admit?.();
      const claims = tokens.peek(credential.token) ?? (await tokens.verify(credential.token));
      const key = `${claims.sid} ${claims.sub}`;
      let facts = state.sessions.peek(key);
      if (facts === undefined) facts = await state.sessions.load(key, undefined);
      if (facts === null || !facts.active || facts.sub !== claims.sub || claims.iat * 1000 <= facts.validAfterMs)
        throw sessionEnded();
      return { kind: "user", sub: claims.sub, sid: claims.sid };
    }
    case "api_key": {
      state.admit?.();
      const digest = apiKeyDigest(credential.key);
      let key = state.apiKeys.peek(digest);
      if (key === undefined) key = await state.apiKeys.load(digest, credential.key);
      if (key === null || !key.active) throw invalidApiKey();
      return { kind: "api_key", sub: key.created_by, key_id: key.key_id, tenant_id: key.tenant_id, scope: key.scope };
    }
  }
}
