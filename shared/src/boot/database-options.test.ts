import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { createLogger } from "../log/logger.ts";
import { databaseOptions } from "./database-options.ts";

const logger = createLogger({ service: "boot-test" });
const url = "postgres://postgres@127.0.0.1:5432/flowstate_test";

describe("databaseOptions", () => {
  it("takes the URL, the schema and the pool bound from the configuration", () => {
    assert.deepEqual(databaseOptions({ DATABASE_URL: url, DATABASE_SCHEMA: "offers", DATABASE_POOL_MAX: 7 }, logger), {
      url,
      schema: "offers",
      logger,
      pool: { max: 7 },
    });
  });

  it("leaves the pool to openDatabase's default when the service has no DATABASE_POOL_MAX", () => {
    // `pool: { max: undefined }` would override openDatabase's max of 10 with undefined.
    const options = databaseOptions({ DATABASE_URL: url, DATABASE_SCHEMA: "partner" }, logger);
    assert.ok(!("pool" in options));
  });
});
