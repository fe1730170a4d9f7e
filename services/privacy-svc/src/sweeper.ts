import { every } from "@flowstate/shared/jobs/every";
import type { PrivacyDeps } from "./deps.ts";
import { sweepExports } from "./verbs/sweep-exports.ts";

/** Runs the sweeper every `intervalMs` (never two rounds at once); stop() waits for a round in flight. */
export function startSweeper(deps: PrivacyDeps, intervalMs: number): { stop(): Promise<void> } {
  return every(intervalMs, () => sweepExports(deps), { logger: deps.logger, what: "export sweep" });
}
