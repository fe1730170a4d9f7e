import type { PrivacyDeps } from "./deps.ts";
import { sweepExports } from "./verbs/sweep-exports.ts";

/** Runs the sweeper every `intervalMs` (never two rounds at once); stop() waits for a round in flight. */
export function startSweeper(deps: PrivacyDeps, intervalMs: number): { stop(): Promise<void> } {
  let round: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    round = round.then(() =>
      sweepExports(deps).catch((err) => deps.logger.error({ err }, "export sweep failed; next round retries")),
    );
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
