import assert from "node:assert/strict";
import { EventId, Sub, TenantId } from "@flowstate/contracts/ids";
import { describe, it } from "vitest";
import { newId } from "./new-id.ts";

describe("newId", () => {
  it("mints ids the contracts' schemas accept, all different", () => {
    const ids = Array.from({ length: 1000 }, () => newId("tnt"));
    for (const id of ids) assert.ok(TenantId.safeParse(id).success, id);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(Sub.safeParse(newId("usr")).success);
  });

  it("puts the creation time first when asked, so such ids sort by creation", () => {
    const early = newId("evt", { timeOrdered: true, now: 1_700_000_000_000 });
    const late = newId("evt", { timeOrdered: true, now: 1_700_000_000_001 });
    assert.ok(EventId.safeParse(early).success, early);
    assert.ok(early < late);
    assert.equal(early.length, late.length);
  });
});
