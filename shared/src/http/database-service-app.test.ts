import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createLogger } from "../log/logger.ts";
import { databaseServiceApp } from "./database-service-app.ts";
import { createMetrics } from "./metrics.ts";
import type { ServiceEnv } from "./types.ts";

type Env = { Variables: ServiceEnv["Variables"] & { who: string } };
const logger = createLogger({ service: "widgets-svc" });

describe("databaseServiceApp", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "db_service_app" });
  });
  afterAll(() => db?.close());

  const build = (orm = db.orm) => {
    const metrics = createMetrics();
    const app = databaseServiceApp<Env>(
      "widgets-svc",
      { logger, orm },
      { metrics },
      {
        bodyLimitBytes: 64,
        context: async (c, next) => {
          if (c.req.header("x-who") === undefined) return c.json({ refused: true }, 401);
          c.set("who", c.req.header("x-who")!);
          await next();
        },
        routes: [
          (app) => app.get("/widgets", (c) => c.json({ first: c.get("who") })),
          (app) => app.get("/widgets", (c) => c.json({ second: true })),
          (app) => app.post("/widgets", (c) => c.json({ created: true }, 201)),
        ],
      },
    );
    return { app, metrics };
  };

  it("answers probes before the context, and /readyz checks the database", async () => {
    const { app } = build();
    assert.equal((await app.request("/healthz")).status, 200);
    const ready = await app.request("/readyz");
    assert.equal(ready.status, 200);
    assert.equal((await ready.json()).checks.database, "ok");
  });

  it("runs the context before every route, and the routes in the order given", async () => {
    const { app } = build();
    assert.equal((await app.request("/widgets")).status, 401);
    const res = await app.request("/widgets", { headers: { "x-who": "usr_1" } });
    assert.deepEqual(await res.json(), { first: "usr_1" });
  });

  it("refuses a body over the limit and serves /metrics from the registry passed", async () => {
    const { app, metrics } = build();
    metrics.gauge("widgets_probe", "a gauge of this test", () => 7);
    const big = await app.request("/widgets", { method: "POST", headers: { "x-who": "usr_1" }, body: "x".repeat(65) });
    assert.equal(big.status, 413);
    assert.match(await (await app.request("/metrics")).text(), /^widgets_probe 7$/m);
  });

  it("reports not ready once the database is closed", async () => {
    const closed = await openTestDatabase({ prefix: "db_service_app_closed" });
    await closed.close();
    const ready = await build(closed.orm).app.request("/readyz");
    assert.equal(ready.status, 503);
  });
});
