import { fork } from "node:child_process";
import { answerCpuQueries } from "@flowstate/shared/testing/cpu-queries";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface ServerProcess {
  url: string;
  pid: number;
  /** The server process's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts a bench server script in its own process. The script listens on port 0, sends `{ port }`
 * over IPC once it listens and calls `answerCpuQueries()` (`serveBench(app)` below does all three);
 * its stdout goes to /dev/null so logging costs what it costs in production (a write per line)
 * without filling a pipe nobody reads.
 *
 * @example
 * const bare = await startServerProcess(new URL("./servers/bare-hono.ts", import.meta.url));
 */
export function startServerProcess(
  script: URL,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(script, args, {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", ...env },
    });
    child.once("exit", (code) => reject(new Error(`${script.pathname} exited (${code}) before listening`)));
    child.once("message", (m) => {
      const { port } = m as { port: number };
      child.removeAllListeners("exit");
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        cpuMicros: () =>
          new Promise((answer) => {
            child.once("message", (reply) => answer((reply as { cpuMicros: number }).cpuMicros));
            child.send("cpu");
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/**
 * Called by a bench server script with its app: serves it on @hono/node-server on a free loopback
 * port, tells the harness the port, answers its CPU queries, and closes on SIGTERM.
 */
export function serveBench(app: Hono): void {
  const server = createAdaptorServer({ fetch: app.fetch });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.send!({ port: typeof address === "object" && address ? address.port : 0 });
    answerCpuQueries();
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
}
