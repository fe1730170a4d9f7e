import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./ports.ts";

export interface Moto {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `moto_server` (the local AWS emulator) on a free loopback port and waits until it answers.
 * The caller owns the process and must `stop()` it.
 */
export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const child = spawn("moto_server", ["-H", "127.0.0.1", "-p", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  // A deadline rather than a count of tries: on a loaded 2-core machine moto's Python start-up alone
  // has taken more than 15 s, and a test run must not fail for that.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited early: ${stderr}`);
    try {
      const res = await fetch(`${endpoint}/moto-api/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`moto_server did not answer on ${endpoint} within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
