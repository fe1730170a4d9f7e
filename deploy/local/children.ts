import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface Child {
  name: string;
  process: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
  /** The last lines it printed, for the error message when it fails to come up. */
  tail(): string[];
  /** SIGTERM, then SIGKILL after `graceMs`. Resolves once it has exited. */
  stop(graceMs?: number): Promise<number | string>;
}

/**
 * Runs a process with its output prefixed by its name, line by line, so several services can
 * share one terminal.
 *
 * @example
 * const child = startChild({ name: "identity-svc", command: process.execPath, args: ["src/main.ts"], cwd, env, print: console.log });
 */
export function startChild(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  format?: (line: string) => string;
}): Child {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const label = `[${options.name}]`;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      if (lines.length > 40) lines.shift();
      options.print(`${label} ${options.format ? options.format(line) : line}`);
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("error", (err) => {
      lines.push(String(err));
      resolve("spawn-error");
    });
  });
  return {
    name: options.name,
    process: child,
    exited,
    tail: () => [...lines],
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/**
 * Polls `url` until it answers 2xx. Fails early when the process exits, or after `timeoutMs`
 * (first boots run migrations and may deploy templates, hence the generous default).
 */
export async function waitHealthy(url: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | string | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${child.name} exited (${exitCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** Makes a pino JSON line readable in a terminal: `INFO message {rest}`; other lines pass unchanged. */
export function formatLogLine(line: string): string {
  if (!line.startsWith("{")) return line;
  try {
    const {
      level,
      msg,
      time: _t,
      pid: _p,
      hostname: _h,
      service: _s,
      _aws: _a, // a CloudWatch EMF directive (the outbox-lag line): the figures themselves stay
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    const name =
      { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" }[Number(level)] ??
      String(level).toUpperCase();
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
    return `${name} ${msg ?? ""}${extra}`;
  } catch {
    return line;
  }
}
