import type { CredentialCheckRequest } from "@flowstate/contracts/internal/identity";
import { ServiceContext } from "../context.ts";
import { requireLiveCredential } from "./lib/live-credential.ts";

/**
 * Another service's write re-check (`internal.credentials.check`, ADR 0012): the same rule and the
 * same locks as identity-svc's own writes (live-credential.ts), in a transaction of its own, so a
 * check that runs while a sign-out or revocation commits waits for it and then refuses. Throws
 * SESSION_REVOKED or INVALID_API_KEY; resolves when the credential is live.
 */
export async function checkCredential({
  ctx,
  identity,
}: {
  ctx: ServiceContext;
  identity: CredentialCheckRequest["identity"];
}): Promise<void> {
  const asCaller = new ServiceContext(ctx.deps, { actor: identity, requestId: ctx.requestId, logger: ctx.logger });
  await ctx.em.transactional((em) => requireLiveCredential(asCaller, em));
}
