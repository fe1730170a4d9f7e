import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { EventEnvelope } from "./envelope.ts";

const valid = {
  id: "evt_01JABCDEFGHJKMNPQRST",
  type: "TenantCreated",
  version: 1,
  source: "flowstate.identity-svc",
  occurred_at: "2026-11-21T10:00:00.000Z",
  tenant_id: "tnt_0123456789ab",
  actor: { kind: "user", sub: "usr_0123456789ab" },
  subject: "usr_0123456789cd",
  request_id: "req_AbCdEfGh12345678",
  trace: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  data: { anything: true },
};

describe("EventEnvelope", () => {
  it("accepts a complete envelope", () => {
    assert.equal(EventEnvelope.safeParse(valid).success, true);
  });

  it("accepts an envelope without the optional tenant, subject, request id and trace", () => {
    const { tenant_id: _t, subject: _s, trace: _tr, request_id: _r, ...minimal } = valid;
    assert.equal(EventEnvelope.safeParse(minimal).success, true);
  });

  it("accepts each kind of actor", () => {
    for (const actor of [
      { kind: "user", sub: "usr_0123456789ab" },
      { kind: "api_key", key_id: "key_0123456789ab", sub: "usr_0123456789ab" },
      { kind: "system", service: "privacy-svc" },
      { kind: "anonymous" },
    ]) {
      assert.equal(EventEnvelope.safeParse({ ...valid, actor }).success, true, JSON.stringify(actor));
    }
  });

  const rejections: [string, Record<string, unknown>][] = [
    ["an id without the evt_ prefix", { id: "01JABCDEFGHJKMNPQRST" }],
    ["a lower-case type", { type: "tenantCreated" }],
    ["version 0", { version: 0 }],
    ["a fractional version", { version: 1.5 }],
    ["a source outside flowstate.*", { source: "aws.partnercentral" }],
    ["occurred_at that is not an ISO date-time", { occurred_at: "yesterday" }],
    ["a subject that is an e-mail address", { subject: "alice@example.com" }],
    ["no actor", { actor: undefined }],
    ["an actor of unknown kind", { actor: { kind: "robot" } }],
    ["a user actor whose sub is an e-mail address", { actor: { kind: "user", sub: "alice@example.com" } }],
    ["an API-key actor without the key", { actor: { kind: "api_key", sub: "usr_0123456789ab" } }],
    ["a system actor with a free-text name", { actor: { kind: "system", service: "Alice's laptop" } }],
    ["a request id with spaces", { request_id: "req 1234 5678" }],
    ["a tenant id without the tnt_ prefix", { tenant_id: "0123456789ab" }],
    ["a malformed traceparent", { trace: "00-xyz" }],
  ];
  for (const [what, patch] of rejections) {
    it(`rejects ${what}`, () => {
      assert.equal(EventEnvelope.safeParse({ ...valid, ...patch }).success, false);
    });
  }
});
