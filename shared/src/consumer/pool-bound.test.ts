import assert from "node:assert/strict";
import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createLogger } from "../log/logger.ts";
import { type Consumer, createConsumer, handlersThePoolServes } from "./consumer.ts";
import { defineConsumer } from "./define-consumer.ts";
import { probeEvent, sendBodies, uniqueKey, waitFor } from "./test-events.ts";
import { createTestQueue, type TestQueue } from "./test-queue.ts";

/**
 * A handler that takes a second connection while its transaction holds the first (an autocommit
 * claim, as privacy-svc's ready e-mail and export build do) must not be able to deadlock the pool.
 * Before the bound, a full receive of 10 such handlers on a pool of 5 hung for good: every
 * connection held by a handler waiting for another one.
 */
const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
let db: TestDatabase;
let q: TestQueue;
let consumer: Consumer | undefined;
beforeAll(async () => {
  db = await openTestDatabase({
    prefix: "poolbound",
    migrations: [{ name: "0001_effect", up: "CREATE TABLE effect (key text NOT NULL, seq int NOT NULL)" }],
  });
  q = await createTestQueue(sqs, { prefix: "poolbound", maxReceiveCount: 5, visibilityTimeout: 30 });
});
afterAll(async () => {
  await consumer?.stop({ deadlineMs: 100 });
  await q?.delete();
  await db?.close();
});

describe("the consumer and the connection pool", () => {
  it("runs no more handlers at once than the pool can give two connections each", () => {
    const pool = (max: number) => ({ config: { get: () => ({ max }) } }) as never;
    assert.equal(handlersThePoolServes(pool(5)), 2);
    assert.equal(handlersThePoolServes(pool(10)), 4);
    assert.equal(handlersThePoolServes(pool(1)), 1);
    assert.equal(handlersThePoolServes(pool(40)), 10);
  });

  it("finishes a full receive of handlers that each take a second connection, on a pool of 5", async () => {
    const key = uniqueKey("second-conn");
    const definition = defineConsumer()({
      service: "pool-bound-test",
      catalog: testEventCatalog,
      events: ["PlatformProbe"],
      handlers: {
        "PlatformProbe.v1": async (e, em: EntityManager) => {
          await new Promise((r) => setTimeout(r, 200)); // every handler of the receive holds its transaction
          // The second connection: a claim committed at once, outside the handler's transaction.
          await db.orm.em
            .fork()
            .execute(`INSERT INTO "${db.schema}".effect (key, seq) VALUES (?, ?)`, [e.data.key, -e.data.seq]);
          await em.execute(`INSERT INTO "${db.schema}".effect (key, seq) VALUES (?, ?)`, [e.data.key, e.data.seq]);
        },
      },
    });
    await sendBodies(
      sqs,
      q.queueUrl,
      Array.from({ length: 10 }, (_, i) => JSON.stringify(probeEvent(key, i + 1))),
    );
    consumer = createConsumer({
      sqs,
      queueUrl: q.queueUrl,
      orm: db.orm,
      logger: createLogger({ service: "pool-bound-test", level: "silent" }),
      definition,
      waitTimeSeconds: 1,
    }).start();
    // Well under the pool's 10 s acquire timeout: the bound, not the timeout, lets it through.
    await waitFor(() => consumer!.stats().deleted === 10, 8_000, "all ten handled");
    assert.equal(consumer.stats().failed, 0);
    const rows = await db.orm.em
      .fork()
      .execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${db.schema}".effect WHERE key = ?`, [key]);
    assert.equal(Number(rows[0]?.n), 20);
  });
});
