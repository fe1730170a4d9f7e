import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";

export interface StackInfo {
  awsEndpoint: string;
  services: Record<string, { url: string; healthy: boolean; pid: number; metricsUrl?: string }>;
}

export interface LaunchedStack extends StackInfo {
  pid: number;
  /** Everything `npm start` printed so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code once the whole stack has stopped. */
  stop(): Promise<number | null>;
}

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Runs `npm start`'s script (scripts/start.ts) as a child process, exactly as a user would, and
 * resolves once it prints its summary: for end-to-end tests over HTTP. Every service gets a
 * kernel-chosen port so parallel test stacks never collide, and the stack starts its own moto
 * unless `env.AWS_ENDPOINT_URL` is given.
 *
 * @example
 * const stack = await launchStack();
 * await fetch(`${stack.services["edge-gateway"]!.url}/healthz`);
 * await stack.stop();
 */
export async function launchStack(env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000): Promise<LaunchedStack> {
  const dir = mkdtempSync(join(tmpdir(), "flowstate-stack-"));
  const file = join(dir, "stack.json");
  const child = spawn(nodeBinary, [join(root, "scripts", "start.ts")], {
    cwd: root,
    env: { ...process.env, AWS_ENDPOINT_URL: "", ...env, FLOWSTATE_FREE_PORTS: "1", FLOWSTATE_STACK_FILE: file },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + timeoutMs;
  while (!output.includes("Flowstate is up.")) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`npm start printed no summary within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const info = JSON.parse(readFileSync(file, "utf8")) as StackInfo;
  rmSync(dir, { recursive: true, force: true });
  return {
    ...info,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
