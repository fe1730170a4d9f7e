/**
 * The floor of any gateway-in-front-of-a-service design (bench/40-gateway.bench.ts), nothing of
 * Flowstate's: on Hono and @hono/node-server as the real processes are, with no authentication,
 * logging, validation or ORM.
 * - `proxy <upstream>`: relays each request (method, Authorization, a JSON body) to the upstream
 *   (fetch, keep-alive) and returns its JSON;
 * - `service <database url>`: on MikroORM's own `pg` pool of 10, every statement prepared
 *   (shared/src/db/prepared-read.ts: the cheapest statement the platform can send):
 *   - `GET /v1/tenants/*`: one indexed read (of pg_database: the one-read floor of the first rows);
 *   - `GET /floor/{key}`: one indexed read of the key's row in `floor.tenant`;
 *   - `PATCH /floor/{key}`: a write at its floor, the shape every tenant write of Flowstate's has:
 *     BEGIN, the row locked, the change with its outbox row in one statement, COMMIT (4 round
 *     trips, issue 26's bound); no credential re-check, no event published, no push.
 *   `floor.tenant` is made afresh with `FLOOR_KEYS` rows (default 500) when the service starts.
 * Its rates against bare Hono's, measured in the same rounds, are the most the gateway's rows
 * could reach on this machine with two hops and these database round trips per request.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { Hono } from "hono";
import { serveBench } from "../servers.ts";

interface Client {
  query(q: string | { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface Pool extends Client {
  connect(): Promise<Client & { release(err?: Error): void }>;
}

const [role, target] = process.argv.slice(2);
const app = new Hono();
if (role === "proxy") {
  app.all("/*", async (c) => {
    const method = c.req.method;
    const bodyless = method === "GET" || method === "HEAD";
    const res = await fetch(`${target}${c.req.path}`, {
      method,
      headers: {
        authorization: c.req.header("authorization") ?? "",
        ...(bodyless ? {} : { "content-type": "application/json" }),
      },
      ...(bodyless ? {} : { body: await c.req.text() }),
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
  const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
  const keys = Number(process.env.FLOOR_KEYS ?? 500);
  await pool.query(`DROP SCHEMA IF EXISTS floor CASCADE; CREATE SCHEMA floor;
    CREATE TABLE floor.tenant (id text PRIMARY KEY, name text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE floor.outbox (id bigserial PRIMARY KEY, tenant_id text NOT NULL, payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO floor.tenant (id, name) SELECT 'k' || i, 'Floor ' || i FROM generate_series(0, ${keys - 1}) i;
    ANALYZE floor.tenant;`);

  const read = "SELECT datname, oid FROM pg_database WHERE datname = $1";
  app.get("/v1/tenants/*", async (c) => {
    const { rows } = await pool.query({ name: "floor_read", text: read, values: ["postgres"] });
    return c.json({ path: c.req.path, database: rows[0] });
  });

  const readKey = "SELECT id, name, updated_at FROM floor.tenant WHERE id = $1";
  app.get("/floor/:key", async (c) => {
    const { rows } = await pool.query({ name: "floor_key", text: readKey, values: [c.req.param("key")] });
    return rows[0] ? c.json(rows[0]) : c.json({ error: "not found" }, 404);
  });

  const lock = "SELECT id FROM floor.tenant WHERE id = $1 FOR UPDATE";
  const change = `WITH changed AS (UPDATE floor.tenant SET name = $2, updated_at = now() WHERE id = $1 RETURNING id, name)
    INSERT INTO floor.outbox (tenant_id, payload) SELECT id, json_build_object('name', name) FROM changed RETURNING tenant_id`;
  app.patch("/floor/:key", async (c) => {
    const key = c.req.param("key");
    const { name } = (await c.req.json()) as { name: string };
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const locked = await client.query({ name: "floor_lock", text: lock, values: [key] });
      if (locked.rows.length === 0) {
        await client.query("ROLLBACK");
        return c.json({ error: "not found" }, 404);
      }
      await client.query({ name: "floor_change", text: change, values: [key, name] });
      await client.query("COMMIT");
      client.release();
      return c.json({ id: key, name });
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  });
}

serveBench(app);
