/**
 * The floor of any gateway-in-front-of-a-service design (bench/40-gateway.bench.ts), nothing of
 * Flowstate's: on Hono and @hono/node-server as the real processes are, with no authentication,
 * logging, validation or ORM.
 * - `proxy <upstream>`: relays `GET /*` to the upstream with the Authorization header (fetch,
 *   keep-alive) and returns its JSON;
 * - `service <database url>`: answers `GET /*` with one indexed PostgreSQL read on MikroORM's own
 *   `pg` pool of 10, as a prepared statement (shared/src/db/prepared-read.ts: the cheapest read
 *   the platform can make; any tenant read needs at least one).
 * Its rate against bare Hono's, measured in the same rounds, is the most the mixed run's ratio
 * could reach on this machine with two hops and a database round trip per request.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { Hono } from "hono";
import { serveBench } from "../servers.ts";

const [role, target] = process.argv.slice(2);
const app = new Hono();
if (role === "proxy") {
  app.get("/*", async (c) => {
    const res = await fetch(`${target}${c.req.path}`, {
      headers: { authorization: c.req.header("authorization") ?? "" },
    });
    return c.json(await res.json(), res.status as 200);
  });
} else {
  const orm = await MikroORM.init({
    clientUrl: target,
    entities: [],
    pool: { min: 0, max: 10 },
    discovery: { warnWhenNoEntities: false },
  });
  const pool = (await orm.em.getConnection().getNativeClient()) as {
    query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  };
  const text = "SELECT datname, oid FROM pg_database WHERE datname = $1";
  app.get("/*", async (c) => {
    const { rows } = await pool.query({ name: "floor_read", text, values: ["postgres"] });
    return c.json({ path: c.req.path, database: rows[0] });
  });
}

serveBench(app);
