import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
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
  // The free port is found before moto binds it: on a busy machine another process (another test's
  // moto, a service) can take it in between. Three tries, each on a new port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startMotoOnce(await freePort(), options);
    } catch (err) {
      if (attempt >= 3 || !/Address already in use/.test(String(err))) throw err;
    }
  }
}

async function startMotoOnce(port: number, options: { plain?: boolean; fastEvents?: boolean }): Promise<Moto> {
  const args = ["-H", "127.0.0.1", "-p", String(port)];
  // `plain`: moto_server as installed, the baseline of bench/15-moto.bench.ts.
  const found = findMoto();
  const [command, argv] = !options.plain && found.python ? [found.python, [launcher, ...args]] : [found.server, args];
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

/** The pinned emulator, as the README and the project-local venv install it. */
export const MOTO_REQUIREMENT = "moto[server]==5.2.*";
const repoRoot = join(import.meta.dirname, "..", "..");
/** A project-local venv (`.local/venv`, git-ignored) made when the machine has no moto of its own. */
const venv = join(repoRoot, ".local", "venv");

const hasModule = (python: string) => spawnSync(python, ["-c", "import moto.server"], { stdio: "ignore" }).status === 0;
const onPath = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

let found: { python?: string | undefined; server: string } | undefined;
/**
 * Where moto is (asked once per process): the machine's `python3` with moto importable (run through
 * moto-server.py), a `moto_server` on PATH, or the project-local venv. With none of them, a venv
 * is made in `.local/venv` and moto installed there from the Python package index, when python3
 * can make one and reach the index; otherwise it throws saying exactly how to get moto.
 */
export function findMoto(): { python?: string | undefined; server: string } {
  if (found) return found;
  if (hasModule("python3")) found = { python: "python3", server: "moto_server" };
  else if (onPath("moto_server")) found = { server: "moto_server" };
  else {
    const python = join(venv, "bin", "python");
    if (!existsSync(python) || !hasModule(python)) installVenv(python);
    found = { python, server: join(venv, "bin", "moto_server") };
  }
  return found;
}

function installVenv(python: string): void {
  const how =
    `moto_server (the local AWS emulator) is not installed. Install it with \`pip install "${MOTO_REQUIREMENT}"\` ` +
    `(or \`pipx install "${MOTO_REQUIREMENT}"\`), or point AWS_ENDPOINT_URL at a running emulator (LocalStack: docker compose up).`;
  if (!onPath("python3")) throw new Error(how);
  console.error(`moto_server not found: creating ${venv} with ${MOTO_REQUIREMENT} (once)`);
  const made = spawnSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
  const installed =
    made.status === 0 &&
    spawnSync(python, ["-m", "pip", "install", "--quiet", MOTO_REQUIREMENT], { stdio: "inherit", timeout: 300_000 })
      .status === 0;
  if (!installed || !hasModule(python)) throw new Error(`${how} (making ${venv} failed: see above)`);
}
