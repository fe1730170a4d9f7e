import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createLogger } from "../log/logger.ts";
import { platformDeps } from "./platform-deps.ts";

describe("platformDeps", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "platform_deps" });
  });
  afterAll(() => db.close());

  it("carries the ORM, its schema for hand-written SQL, the logger and the assertion key", () => {
    const logger = createLogger({ service: "boot-test" });
    const deps = platformDeps({ orm: db.orm, logger, internalAuthSecret: "assertion-key-for-test" });
    assert.deepEqual(deps, { orm: db.orm, schema: db.schema, logger, internalAuthSecret: "assertion-key-for-test" });
  });
});
