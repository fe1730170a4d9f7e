import type { Logger } from "../log/logger.ts";

/**
 * Runs `task` every `everyMs` in the background: never two at once (a slow dependency must not
 * stack ticks), a failure logged and retried at the next tick, and the timer never keeps the
 * process alive. `stop()` waits for a round in flight, so a shutdown hook can close the database
 * after it. For a service's periodic chores (key maintenance, housekeeping, sweepers).
 *
 * @example
 * const chores = every(60_000, () => expireInvitations({ ctx }), { logger, what: "housekeeping" });
 * onShutdown.push(() => chores.stop());
 */
export function every(
  everyMs: number,
  task: () => Promise<unknown>,
  options: { logger: Logger; what: string },
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .then(
        () => undefined,
        (err: unknown) => options.logger.error({ err }, `${options.what} failed; will retry`),
      )
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
