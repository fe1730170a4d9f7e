import { inTransaction, now, type ServiceContext } from "../context.ts";
import { rotate, signingKeyAt } from "../tokens/key-set.ts";

export interface RotationResult {
  rotated: boolean;
  /** The newest key: the one that signs from `activates_at`. */
  kid: string;
  activates_at: string;
}

/**
 * Starts a signing key rotation: publishes a new key that signs only after the activation delay
 * and schedules the current key's retirement (see tokens/key-set.ts for the timeline). Writers are
 * serialised by a transaction-scoped advisory lock, because Secrets Manager has no compare-and-set
 * and two replicas rotating at once would otherwise each publish a key the other overwrites.
 * With `ifOlderThanMs`, rotates only when the signing key is at least that old (the periodic check).
 */
export async function rotateSigningKey({
  ctx,
  ifOlderThanMs,
}: {
  ctx: ServiceContext;
  ifOlderThanMs?: number;
}): Promise<RotationResult> {
  const { keyStore, keyring, rotation } = ctx.deps;
  const result = await inTransaction(ctx, async (em) => {
    await em.execute("SELECT pg_advisory_xact_lock(hashtext('flowstate.identity.signing-keys'), hashtext(?))", [
      keyStore.id,
    ]);
    const at = now(ctx);
    const current = await keyStore.load(); // read under the lock: another replica may just have rotated
    const signing = signingKeyAt(current, at);
    // Age from creation: the first key's activates_at is the epoch (see key-store.ts).
    const due =
      ifOlderThanMs === undefined || !signing || at.getTime() - Date.parse(signing.created_at) >= ifOlderThanMs;
    const { set, rotated } = due ? await rotate(current, at, rotation) : { set: current, rotated: false };
    if (rotated) await keyStore.save(set);
    const newest = set.keys.reduce((a, b) => (Date.parse(b.activates_at) > Date.parse(a.activates_at) ? b : a));
    return { rotated, kid: newest.kid, activates_at: newest.activates_at };
  });
  if (result.rotated) {
    await keyring.reload();
    ctx.logger.info({ kid: result.kid, activates_at: result.activates_at }, "signing key rotation started");
  }
  return result;
}
