import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { testKeyring } from "../auth/keyring.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createLogger } from "../log/logger.ts";
import { platformDeps } from "./platform-deps.ts";

describe("platformDeps", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "platform_deps" });
  });
  afterAll(() => db.close());

  it("carries the ORM, its schema for hand-written SQL, the logger and the keys per caller", () => {
    const logger = createLogger({ service: "boot-test" });
    const callerKeys = testKeyring("partner-svc", "master-for-test");
    const deps = platformDeps({ orm: db.orm, logger, callerKeys });
    assert.deepEqual(deps, { orm: db.orm, schema: db.schema, logger, callerKeys });
  });
});
