/**
 * Called by a server process the bench starts (bench/lib/servers.ts `startServerProcess`): answers
 * the harness's CPU queries over IPC. CPU time per request holds up on a busy machine far better
 * than requests per second do. Here rather than in bench/ because a service's own bench server
 * (the seller sandbox's `src/testing/bench-server.ts`) answers them too, and services import
 * nothing from bench/.
 */
export function answerCpuQueries(): void {
  process.on("message", () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMicros: user + system });
  });
}
