import assert from "node:assert/strict";
import { personalDataCategories } from "@flowstate/contracts/internal/personal-data";
import { describe, it } from "vitest";
import { GatheringError } from "../gathering/errors.ts";
import { categoryDocument } from "./category-document.ts";

async function document(name: keyof typeof personalDataCategories, records: unknown[]) {
  let count = -1;
  let out = "";
  for await (const part of categoryDocument(
    name,
    personalDataCategories[name],
    (async function* () {
      yield* records;
    })(),
    (n) => {
      count = n;
    },
  ))
    out += part;
  return { out, count };
}

const membership = {
  tenant_id: "tnt_0123456789abcdefghij",
  tenant_name: "Acme",
  tenant_status: "active",
  role: "admin",
  since: "2026-11-01T00:00:00.000Z",
};

describe("categoryDocument", () => {
  it("writes a list category as a JSON array and counts it", async () => {
    const { out, count } = await document("memberships", [membership, { ...membership, tenant_name: "Other" }]);
    assert.equal(count, 2);
    assert.deepEqual(JSON.parse(out), [membership, { ...membership, tenant_name: "Other" }]);
    assert.deepEqual(JSON.parse((await document("memberships", [])).out), []);
  });

  it("writes a single-record category as an object, and refuses none or two", async () => {
    const prefs = { export_ready: true, security_alerts: false, offer_change_results: true, product_updates: false };
    assert.deepEqual(JSON.parse((await document("notification_preferences", [prefs])).out), prefs);
    await assert.rejects(document("notification_preferences", []), GatheringError);
    await assert.rejects(document("notification_preferences", [prefs, prefs]), GatheringError);
  });

  it("refuses a record with a field its category does not declare, so nothing extra reaches the archive", async () => {
    await assert.rejects(document("memberships", [{ ...membership, other_members: ["usr_x"] }]), GatheringError);
    await assert.rejects(
      document("profile", [
        {
          sub: "usr_0123456789abcdefghij",
          name: "A",
          email: "a@example.test",
          picture_url: null,
          status: "active",
          created_at: "2026-11-01T00:00:00.000Z",
          password_hash: "$argon2id$…",
        },
      ]),
      GatheringError,
    );
  });
});
