import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports.ts";

/** moto_server with two of its costs taken out (moto-server.py says which). */
const launcher = fileURLToPath(new URL("moto-server.py", import.meta.url));

export interface Moto {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `moto_server` (the local AWS emulator) on a free loopback port and waits until it answers.
 * The caller owns the process and must `stop()` it. It runs through `moto-server.py` on the Python
 * that has moto (`python3`), or as the plain `moto_server` command where that Python has no moto.
 */
export async function startMoto(options: { plain?: boolean; fastEvents?: boolean } = {}): Promise<Moto> {
  const port = await freePort();
  const args = ["-H", "127.0.0.1", "-p", String(port)];
  // `plain`: moto_server as installed, the baseline of bench/15-moto.bench.ts.
  const [command, argv] = !options.plain && pythonHasMoto() ? ["python3", [launcher, ...args]] : ["moto_server", args];
  // fastEvents (default on; FLOWSTATE_MOTO_FAST_EVENTS=0 turns it off): moto-server.py's first fix,
  // the one that changes event latency (milliseconds, as in production, against half a second).
  const fast = options.fastEvents ?? process.env.FLOWSTATE_MOTO_FAST_EVENTS !== "0";
  const child = spawn(command, argv, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, FLOWSTATE_MOTO_FAST_EVENTS: fast ? "1" : "0" },
  });
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

let hasMoto: boolean | undefined;
/** Whether `python3` imports moto (asked once per process; a machine may install moto for another Python). */
function pythonHasMoto(): boolean {
  hasMoto ??= spawnSync("python3", ["-c", "import moto.server"], { stdio: "ignore" }).status === 0;
  return hasMoto;
}
