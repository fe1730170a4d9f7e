import { fork } from "node:child_process";

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a bench server script in its own process. The script listens on port 0 and sends
 * `{ port }` over IPC once it listens; its stdout goes to /dev/null so logging costs what it
 * costs in production (a write per line) without filling a pipe nobody reads.
 *
 * @example
 * const bare = await startServerProcess(new URL("./servers/bare-hono.ts", import.meta.url));
 */
export function startServerProcess(script: URL, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
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
