import { every } from "@flowstate/shared/jobs/every";
import { ServiceContext } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";
import { rotateSigningKey } from "../verbs/rotate-signing-key.ts";

/**
 * The background half of key rotation, per replica: re-read the key set every `reloadMs` (so a
 * rotation written by another replica is seen well within the activation delay), and when the
 * signing key is older than `rotateAfterMs`, start a rotation (the advisory lock inside the verb
 * makes concurrent replicas produce one). Failures are logged and retried on the next tick: the
 * process keeps signing with the key set it has.
 */
export function startKeyMaintenance(
  deps: IdentityDeps,
  options: { reloadMs: number; rotateAfterMs: number },
): { stop(): Promise<void> } {
  return every(
    options.reloadMs,
    async () => {
      await deps.keyring.reload();
      if (options.rotateAfterMs > 0) {
        const ctx = new ServiceContext(deps, { actor: { kind: "system" } });
        await rotateSigningKey({ ctx, ifOlderThanMs: options.rotateAfterMs });
      }
    },
    { logger: deps.logger, what: "signing key maintenance" },
  );
}
