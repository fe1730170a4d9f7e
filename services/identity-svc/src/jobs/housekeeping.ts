import { every } from "@flowstate/shared/jobs/every";
import { ServiceContext } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";
import { forgetUnusedClients } from "../oauth/clients/forget-unused-clients.ts";
import { expireInvitations } from "../verbs/expire-invitations.ts";
import { forgetExpiredDevices } from "../verbs/sign-in-device.ts";
import { forgetOldSignInFailures } from "../verbs/sign-in-throttle.ts";

/**
 * identity-svc's periodic chores, per replica (each chore is safe to run on several at once):
 * closing invitations past their seven days, forgetting sign-in failures of addresses quiet for a
 * day and expired device tokens, deleting OAuth clients never used for a token a day after registration. Failures are logged and retried on the next tick.
 *
 * @example
 * const housekeeping = startHousekeeping(deps, { everyMs: 60_000 });
 * onShutdown.push(() => housekeeping.stop());
 */
export function startHousekeeping(deps: IdentityDeps, options: { everyMs: number }): { stop(): Promise<void> } {
  const system = () => new ServiceContext(deps, { actor: { kind: "system" } });
  return every(
    options.everyMs,
    async () => {
      // Batches of 100 until none is left, so a backlog after downtime clears in one tick.
      while ((await expireInvitations({ ctx: system() })) === 100);
      await forgetOldSignInFailures(system());
      await forgetExpiredDevices(system());
      await forgetUnusedClients(system());
    },
    { logger: deps.logger, what: "housekeeping" },
  );
}
