import assert from "node:assert/strict";
import type { TestDatabase } from "@flowstate/shared/db/test-database";
import { afterAll, beforeAll, describe, it } from "vitest";
import { openOffersTestDatabase } from "../testing/test-database.ts";
import { type Intent, recordIntent } from "./record-intent.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = (await openOffersTestDatabase("offers_intent")).db;
});
afterAll(() => db.close());

const intent = (key: string): Intent => ({
  tenantId: "tnt_intent",
  action: "create",
  offerId: null,
  idempotencyKey: key,
  requestHash: "h",
  clientToken: `token-${key}`,
  request: { ChangeSetName: "Flowstate create", ChangeSet: [] },
  actor: { kind: "user", sub: "usr_intent" },
  requestId: null,
  principal: "backend",
  trace: null,
  currencyNotChecked: null,
});

describe("recordIntent", () => {
  it("records one intent per key when eight duplicates insert at once, and answers every one with that row", async () => {
    // The race this guards lands in a few rounds of a hundred (PostgreSQL checks only the arbiter
    // indexes before inserting; client_token is a second unique index the duplicates share).
    for (let round = 0; round < 100; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => recordIntent({ orm: db.orm, schema: db.schema }, intent(`burst-${round}`))),
      );
      assert.equal(answers.filter((a) => a.fresh).length, 1, `round ${round}`);
      assert.equal(new Set(answers.map((a) => a.row.id)).size, 1, `round ${round}`);
    }
  });
});
