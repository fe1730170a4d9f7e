import type { ServiceContext } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";
import { expireInvitations } from "../verbs/expire-invitations.ts";
import { forgetOldSignInFailures } from "../verbs/sign-in-throttle.ts";

/**
 * identity-svc's periodic chores, per replica (each chore is safe to run on several at once):
 * closing invitations past their seven days, forgetting sign-in failures of addresses quiet for a
 * day. Failures are logged and retried on the next tick.
 *
 * @example
 * const housekeeping = startHousekeeping(deps, { everyMs: 60_000 });
 * onShutdown.push(() => housekeeping.stop());
 */
export function startHousekeeping(deps: IdentityDeps, options: { everyMs: number }): { stop(): void } {
  let busy = false; // a slow database must not stack ticks
  const tick = async () => {
    const ctx: ServiceContext = {
      em: deps.orm.em.fork(),
      actor: { kind: "system" },
      requestId: `housekeeping-${Date.now()}`,
      logger: deps.logger,
      deps,
      invalidations: [],
    };
    try {
      // Batches of 100 until none is left, so a backlog after downtime clears in one tick.
      while ((await expireInvitations({ ctx: { ...ctx, em: deps.orm.em.fork() } })) === 100);
      await forgetOldSignInFailures({ ...ctx, em: deps.orm.em.fork() });
    } catch (err) {
      deps.logger.error({ err }, "housekeeping failed; will retry");
    }
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void tick().finally(() => {
      busy = false;
    });
  }, options.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
