import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { parseEvent } from "./catalog.ts";

const base = {
  id: "evt_01JABCDEFGHJKMNPQRST",
  source: "flowstate.identity-svc",
  occurred_at: "2026-11-21T10:00:00.000Z",
  actor: { kind: "user", sub: "usr_0123456789ab" },
};

describe("parseEvent", () => {
  it("accepts a catalogued event with valid data", () => {
    const r = parseEvent({
      ...base,
      type: "TenantCreated",
      version: 1,
      data: { tenant_id: "tnt_0123456789ab", owner_sub: "usr_0123456789ab" },
    });
    assert.equal(r.ok, true);
  });
  it("rejects an unknown version as unknown_event", () => {
    const r = parseEvent({ ...base, type: "TenantCreated", version: 9, data: {} });
    assert.deepEqual(r.ok ? null : r.reason, "unknown_event");
  });
  it("rejects data that does not match the catalog as invalid_data", () => {
    const r = parseEvent({ ...base, type: "TenantCreated", version: 1, data: { tenant_id: "nope" } });
    assert.deepEqual(r.ok ? null : r.reason, "invalid_data");
  });
  it("rejects an envelope without an id as invalid_envelope", () => {
    const { id: _id, ...noId } = base;
    const r = parseEvent({ ...noId, type: "TenantCreated", version: 1, data: {} });
    assert.deepEqual(r.ok ? null : r.reason, "invalid_envelope");
  });
});
