import assert from "node:assert/strict";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { afterAll, beforeAll, describe, test } from "vitest";
import { domainEvent, newSub, newTenantId } from "../testing/events.ts";
import { type AuditHarness, startAuditHarness } from "../testing/harness.ts";
import { recordEvent } from "../verbs/record-event.ts";

let h: AuditHarness;
const tenant = newTenantId();
const otherTenant = newTenantId();
const owner = newSub();
const admin = newSub();
const member = newSub();
const session = "ses_0123456789abcdefghij";
const asOwner = {
  as: { kind: "user", sub: owner, sid: session },
  tenant: { tenant_id: tenant, role: "owner" },
} as const;
const T = `/v1/tenants/${tenant}/audit-events`;
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes)).toISOString();

const events: DomainEvent[] = [
  domainEvent(
    "TenantCreated.v1",
    { tenant_id: tenant, owner_sub: owner },
    {
      actor: { kind: "user", sub: owner },
      tenant_id: tenant,
      occurred_at: at(0),
    },
  ),
  domainEvent(
    "MembershipAdded.v1",
    { tenant_id: tenant, sub: admin, role: "admin" },
    {
      actor: { kind: "user", sub: owner },
      subject: admin,
      tenant_id: tenant,
      occurred_at: at(1),
    },
  ),
  domainEvent(
    "MembershipAdded.v1",
    { tenant_id: tenant, sub: member, role: "member" },
    {
      actor: { kind: "user", sub: admin },
      subject: member,
      tenant_id: tenant,
      occurred_at: at(2),
    },
  ),
  domainEvent(
    "MembershipRoleChanged.v1",
    { tenant_id: tenant, sub: member, role: "admin" },
    {
      actor: { kind: "api_key", key_id: "key_0123456789abcdefghij", sub: admin },
      subject: member,
      tenant_id: tenant,
      occurred_at: at(3),
    },
  ),
  // Same instant as the one before: the cursor must still order them (by row id).
  domainEvent(
    "FeatureFlagChanged.v1",
    { tenant_id: tenant, flag: "marketplace_offers", enabled: true },
    {
      actor: { kind: "user", sub: owner },
      tenant_id: tenant,
      occurred_at: at(3),
    },
  ),
  domainEvent(
    "MembershipAdded.v1",
    { tenant_id: otherTenant, sub: member, role: "member" },
    {
      actor: { kind: "user", sub: newSub() },
      subject: member,
      tenant_id: otherTenant,
      occurred_at: at(4),
    },
  ),
  domainEvent(
    "NotificationPreferencesChanged.v1",
    { sub: member },
    {
      actor: { kind: "user", sub: member },
      subject: member,
      occurred_at: at(5),
    },
  ),
];

beforeAll(async () => {
  h = await startAuditHarness({ prefix: "au_read" });
  for (const e of events) await h.inTransaction((em) => recordEvent(em, h.schema, e, h.logger));
  await h.asOwner(
    "INSERT INTO audit_event_legacy (legacy_id, event_type, occurred_at, tenant_id, actor_email, target_email) VALUES ('old-1', 'member.invited', '2026-01-01', ?, 'old.owner@legacy.example.com', 'old.member@legacy.example.com')",
    [tenant],
  );
});
afterAll(() => h?.close());

const get = async (path: string, o: Parameters<AuditHarness["call"]>[2] = asOwner) => {
  const res = await h.call("GET", path, o);
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body as { items: Record<string, unknown>[]; next_cursor: string | null };
};
const ids = (items: Record<string, unknown>[]) => items.map((i) => i.event_id);
const byId = (...indexes: number[]) => indexes.map((i) => events[i]!.id);

describe("GET /v1/tenants/{id}/audit-events", () => {
  test("lists the tenant's events newest first, with actor and target by sub, never a legacy e-mail row", async () => {
    const page = await get(T);
    assert.deepEqual(ids(page.items), byId(4, 3, 2, 1, 0));
    assert.equal(page.next_cursor, null);
    const roleChange = page.items[1]!;
    assert.deepEqual(roleChange, {
      event_id: events[3]!.id,
      type: "MembershipRoleChanged",
      version: 1,
      occurred_at: at(3),
      recorded_at: roleChange.recorded_at,
      source: "flowstate.identity",
      tenant_id: tenant,
      actor: { kind: "api_key", key_id: "key_0123456789abcdefghij", sub: admin },
      target_sub: member,
      request_id: null,
      summary: { role: "admin" },
    });
    assert.doesNotMatch(JSON.stringify(page), /@|legacy/);
  });

  test("filters by time range, type and actor", async () => {
    assert.deepEqual(ids((await get(`${T}?from=${at(1)}&to=${at(3)}`)).items), byId(2, 1));
    assert.deepEqual(ids((await get(`${T}?type=MembershipAdded`)).items), byId(2, 1));
    assert.deepEqual(ids((await get(`${T}?actor_sub=${admin}`)).items), byId(3, 2));
    assert.deepEqual(ids((await get(`${T}?actor_sub=${admin}&type=MembershipAdded`)).items), byId(2));
    assert.deepEqual((await get(`${T}?type=AccountDeleted`)).items, []);
  });

  test("pages with a cursor, without repeating or skipping rows that share an instant", async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`${T}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...ids(page.items));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, byId(4, 3, 2, 1, 0));
  });

  test("an API key of the tenant reads it too (write scope: the gateway keeps read keys out, they stand for a member)", async () => {
    const key = {
      as: { kind: "api_key", sub: admin, key_id: "key_0123456789abcdefghij", tenant_id: tenant, scope: "write" },
    } as const;
    assert.deepEqual(ids((await get(`${T}?limit=1`, key)).items), byId(4));
  });
});

describe("GET /v1/users/me/audit-events", () => {
  test("lists the events where the caller was the target, across tenants, newest first", async () => {
    const page = await get("/v1/users/me/audit-events", { as: { kind: "user", sub: member, sid: session } });
    assert.deepEqual(ids(page.items), byId(6, 5, 3, 2));
    assert.deepEqual(
      ids(
        (
          await get("/v1/users/me/audit-events?type=MembershipAdded&limit=1", {
            as: { kind: "user", sub: member, sid: session },
          })
        ).items,
      ),
      byId(5),
    );
  });

  test("someone else's events are not the caller's", async () => {
    const page = await get("/v1/users/me/audit-events", { as: { kind: "user", sub: owner, sid: session } });
    assert.deepEqual(page.items, []);
  });
});
