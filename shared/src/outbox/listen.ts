import type { PostgreSqlConnection } from "@mikro-orm/postgresql";
import type { Database } from "../db/open-database.ts";

// The slice of a `pg` PoolClient used here (pg ships no types in this repo).
interface ListenClient {
  query(sql: string): Promise<unknown>;
  on(event: "notification" | "error", listener: (arg?: unknown) => void): void;
  release(err?: Error | boolean): void;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * Holds one pooled connection in `LISTEN <channel>` and calls `onNotify` on each notification, or
 * `onLost` once if the connection breaks (the caller falls back to polling and may listen again).
 */
export async function listen(
  orm: Database,
  channel: string,
  onNotify: () => void,
  onLost: (err: unknown) => void,
): Promise<Listener> {
  const pool = await (orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
  const client = (await pool.connect()) as ListenClient;
  let closed = false;
  client.on("notification", () => onNotify());
  client.on("error", (err) => {
    if (closed) return;
    closed = true;
    client.release(true);
    onLost(err);
  });
  try {
    await client.query(`LISTEN "${channel}"`);
  } catch (err) {
    closed = true;
    client.release(true);
    throw err;
  }
  return {
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.query(`UNLISTEN "${channel}"`);
        client.release();
      } catch {
        client.release(true);
      }
    },
  };
}
