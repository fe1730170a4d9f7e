/**
 * Helpers of the benches that run services as `npm start` runs them (`node src/main.ts`, own
 * processes): starting one, waiting for it, calling it, and reading CPU time from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process in ms (/proc/<pid>/stat fields 14 and 15). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * write(2) and writev(2) calls a process has made (/proc/<pid>/io `syscw`): a socket write wakes its
 * peer, which on this 2-core VM costs more than the bytes.
 */
export function writeCalls(pid: number): number {
  return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
}

/** {@link cpuMs}, or undefined when the process has exited (a PostgreSQL backend may, mid-window). */
export function readCpuSafe(pid: number): number | undefined {
  try {
    return cpuMs(pid);
  } catch {
    return undefined;
  }
}

/**
 * The PostgreSQL backends serving the bench database (identity-svc's pool), not every postgres
 * process: the server is shared with whatever else runs on the machine (other test suites).
 */
export function benchBackends(url: string): number[] {
  return psqlLines(
    url,
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  ).map(Number);
}

/** One statement through psql on the bench database (outside the processes measured), its rows as lines. */
export function psqlLines(url: string, sql: string): string[] {
  const u = new URL(url);
  const args = ["-h", u.hostname, "-p", u.port || "5432", "-U", u.username || "postgres", "-d", u.pathname.slice(1)];
  return execFileSync("psql", [...args, "-tAc", sql])
    .toString()
    .split("\n")
    .filter(Boolean);
}

/**
 * BENCH_CPU_PROF=<dir>: each service writes a V8 CPU profile there when it exits (NODE_OPTIONS may
 * not carry --cpu-prof). Node creates the directory only at exit, after the bench wrote its windows
 * there, so it is made here.
 */
const profileDir = process.env.BENCH_CPU_PROF;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];

/** Now, in µs on the clock of V8's profile timestamps: where a measured window starts and ends. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * With BENCH_CPU_PROF, the bench's measured windows go beside the profiles (windows.json, read by
 * `node bench/lib/profile-summary.ts <dir> <kind>`), and which pid is which service goes to stderr.
 */
export function writeProfileWindows(
  windows: readonly { kind: string; startUs: number; endUs: number }[],
  pids: Record<string, number | undefined>,
): void {
  if (!profileDir) return;
  const named = Object.entries(pids).map(([name, pid]) => `${name} ${pid}`);
  process.stderr.write(`bench: CPU profiles by pid: ${named.join(", ")}
`);
  writeFileSync(join(profileDir, "windows.json"), JSON.stringify(windows));
}

/** Starts `services/<name>/src/main.ts` on this Node, stdout to /dev/null (logging costs its write, nothing more). */
export function startService(name: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [...profile, "src/main.ts"], {
    cwd: `${root}services/${name}`,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.once("exit", (code) => code && process.stderr.write(`bench: ${name} exited with ${code}\n`));
  return child;
}

export async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

/** POSTs JSON, or nothing when `body` is undefined (with a bearer token when given); returns the JSON answer, throws on a non-2xx. */
export async function post(url: string, body: unknown, token?: string): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, string>>;
}
