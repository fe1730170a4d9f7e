import assert from "node:assert/strict";
import type { PartnerEventMetadata } from "@flowstate/contracts/events/partner";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { afterAll, beforeAll, describe, it } from "vitest";
import { migrations } from "../db/migrations.ts";
import { applyPartnerEvent } from "./apply-partner-event.ts";
import { forgetTenant } from "./forget-tenant.ts";
import { listEngagements, listOpportunities } from "./list-sync-state.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase({ prefix: "partner", migrations });
});
afterAll(() => db.close());

let n = 0;
const tenant = () => `tnt_${String(++n).padStart(4, "0")}${Math.random().toString(36).slice(2, 10)}`;
const event = (
  tenant_id: string,
  detail_type: PartnerEventMetadata["detail_type"],
  minute: number,
  extra: Partial<PartnerEventMetadata>,
) =>
  ({
    tenant_id,
    account_id: "222222222222",
    partner_event_id: `pe-${detail_type.replaceAll(" ", "")}-${minute}-${Math.random()}`,
    detail_type,
    event_time: new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString(),
    catalog: "AWS",
    ...extra,
  }) as PartnerEventMetadata;

const apply = (events: PartnerEventMetadata[]) =>
  db.orm.em.fork().transactional(async (em) => {
    for (const e of events) await applyPartnerEvent(em, db.schema, e);
  });
const query = { limit: 50 };

/** Every permutation of a small list (4 events: 24 orders). */
const permutations = <T>(xs: T[]): T[][] =>
  xs.length <= 1
    ? [xs]
    : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));

describe("partner sync state", () => {
  it("converges to the same opportunity row whatever the order of its events", async () => {
    const results = new Set<string>();
    for (const order of permutations([0, 1, 2, 3])) {
      const t = tenant();
      const events = [
        event(t, "Opportunity Created", 1, { opportunity_id: "O1" }),
        event(t, "Opportunity Updated", 2, { opportunity_id: "O1" }),
        event(t, "Opportunity Accepted", 3, { opportunity_id: "O1" }),
        event(t, "Opportunity Updated", 4, { opportunity_id: "O1" }),
      ];
      await apply(order.map((i) => events[i]!));
      const { items } = await listOpportunities(db.orm.em.fork(), db.schema, t, query, null);
      assert.equal(items.length, 1);
      const { first_seen_at: _f, updated_at: _u, ...row } = items[0]!;
      results.add(JSON.stringify(row));
      assert.equal(row.review_outcome, "accepted");
      assert.equal(row.last_event_at, "2026-11-23T10:04:00.000Z");
    }
    assert.equal(results.size, 1);
  });

  it("never reopens a decided invitation, and links an engagement's opportunities as a set", async () => {
    for (const order of permutations([0, 1, 2, 3])) {
      const t = tenant();
      const ids = { engagement_id: "eng-1", invitation_id: "engi-1" };
      const events = [
        event(t, "Engagement Invitation Created", 1, { ...ids, invitation_status: "PENDING" }),
        event(t, "Engagement Invitation Accepted", 2, { ...ids, invitation_status: "ACCEPTED" }),
        event(t, "Engagement Resource Snapshot Created", 3, { engagement_id: "eng-1", opportunity_id: "O2" }),
        event(t, "Engagement Resource Snapshot Created", 4, { engagement_id: "eng-1", opportunity_id: "O1" }),
      ];
      await apply(order.map((i) => events[i]!));
      const { items } = await listEngagements(db.orm.em.fork(), db.schema, t, query, null);
      assert.equal(items[0]!.invitation_status, "ACCEPTED", `order ${order}`);
      assert.deepEqual(items[0]!.opportunity_ids, ["O1", "O2"]);
      assert.equal(items[0]!.last_event_type, "Engagement Resource Snapshot Created");
    }
  });

  it("keeps tenants apart, pages newest first without repeats, and forgets a deleted tenant", async () => {
    const [a, b] = [tenant(), tenant()];
    await apply(Array.from({ length: 5 }, (_, i) => event(a, "Opportunity Created", i, { opportunity_id: `O${i}` })));
    await apply([event(b, "Opportunity Created", 9, { opportunity_id: "OB" })]);
    const first = await listOpportunities(db.orm.em.fork(), db.schema, a, { limit: 2 }, null);
    assert.deepEqual(
      first.items.map((i) => i.opportunity_id),
      ["O4", "O3"],
    );
    const { positionOf } = await import("./list-sync-state.ts");
    const rest = await listOpportunities(
      db.orm.em.fork(),
      db.schema,
      a,
      { limit: 10 },
      positionOf({ limit: 10, cursor: first.next_cursor! }),
    );
    assert.deepEqual(
      rest.items.map((i) => i.opportunity_id),
      ["O2", "O1", "O0"],
    );
    assert.equal(rest.next_cursor, null);
    await db.orm.em.fork().transactional((em) => forgetTenant(em, db.schema, a));
    assert.equal((await listOpportunities(db.orm.em.fork(), db.schema, a, query, null)).items.length, 0);
    assert.equal((await listOpportunities(db.orm.em.fork(), db.schema, b, query, null)).items.length, 1);
  });

  it("drops a partner event delivered after the tenant was forgotten, and one applied at the same moment leaves no row", async () => {
    const late = tenant();
    await apply([event(late, "Opportunity Created", 1, { opportunity_id: "O1" })]);
    await db.orm.em.fork().transactional((em) => forgetTenant(em, db.schema, late));
    await apply([event(late, "Opportunity Updated", 2, { opportunity_id: "O1" })]);
    await apply([event(late, "Engagement Invitation Created", 3, { engagement_id: "eng-1", invitation_id: "engi-1" })]);
    assert.equal((await listOpportunities(db.orm.em.fork(), db.schema, late, query, null)).items.length, 0);
    assert.equal((await listEngagements(db.orm.em.fork(), db.schema, late, query, null)).items.length, 0);

    for (let i = 0; i < 20; i++) {
      const raced = tenant();
      await Promise.all([
        apply([event(raced, "Opportunity Created", 1, { opportunity_id: `O${i}` })]),
        db.orm.em.fork().transactional((em) => forgetTenant(em, db.schema, raced)),
      ]);
      assert.equal(
        (await listOpportunities(db.orm.em.fork(), db.schema, raced, query, null)).items.length,
        0,
        `run ${i}`,
      );
    }
  });
});
