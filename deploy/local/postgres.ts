import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { connect } from "node:net";

/** Resolves true when something accepts TCP connections on host:port within `ms`. */
export function canConnect(host: string, port: number, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Starts the machine's PostgreSQL cluster when nothing listens on its port. The cluster is the
 * Debian one (`pg_ctlcluster`); on other machines point DATABASE_URL at a running server instead.
 */
export async function ensurePostgres(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const p = Number(port || 5432);
  if (await canConnect(hostname, p)) return;
  if (!["127.0.0.1", "localhost"].includes(hostname)) {
    throw new Error(`PostgreSQL at ${hostname}:${p} is not reachable and is not local, so it cannot be started here`);
  }
  const [version] = readdirSync("/etc/postgresql");
  if (!version) throw new Error("no local PostgreSQL cluster found under /etc/postgresql");
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
  for (let i = 0; i < 50; i++) {
    if (await canConnect(hostname, p)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`PostgreSQL did not come up on ${hostname}:${p}`);
}

/** Creates the database named in the URL when it does not exist (connects to `postgres` to do so). */
export function ensureDatabase(url: string): void {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name ${name}`);
  const args = ["-h", u.hostname, "-p", u.port || "5432", "-U", u.username || "postgres", "-d", "postgres", "-tAc"];
  const exists = execFileSync("psql", [...args, `SELECT 1 FROM pg_database WHERE datname='${name}'`])
    .toString()
    .trim();
  if (exists !== "1") execFileSync("psql", [...args, `CREATE DATABASE ${name}`]);
}
