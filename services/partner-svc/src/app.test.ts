import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createApp } from "./app.ts";
import { migrations } from "./db/migrations.ts";
import { applyPartnerEvent } from "./verbs/apply-partner-event.ts";

const secret = randomBytes(32).toString("base64url");
let db: TestDatabase;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  db = await openTestDatabase({ prefix: "partner_app", migrations });
  app = createApp(
    {
      orm: db.orm,
      schema: db.schema,
      logger: createLogger({ service: "partner-svc", level: "silent" }),
      callerKeys: testKeyring("partner-svc", secret),
    },
    { checkResponses: true },
  );
});
afterAll(() => db.close());

const tenantId = () => `tnt_${randomBytes(8).toString("hex")}`;
const user: VerifiedIdentity = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" };
const get = (path: string, tenant?: TenantContext, identity: VerifiedIdentity = user) =>
  app.request(path, {
    headers: {
      [IDENTITY_HEADER]: signedAs(secret, "partner-svc", bodyless("GET", path), {
        identity,
        channel: "rest",
        ...(tenant ? { tenant } : {}),
      }),
    },
  });

describe("partner-svc", () => {
  it("serves exactly its registry routes, checked against their schemas", () => {
    expectRouteContract(app, "partner-svc");
  });

  it("lists a tenant's opportunities and engagements through the gateway's assertion", async () => {
    const t = tenantId();
    await db.orm.em.fork().transactional((em) =>
      applyPartnerEvent(em, db.schema, {
        tenant_id: t,
        account_id: "222222222222",
        partner_event_id: "e-1",
        detail_type: "Engagement Invitation Created",
        event_time: "2026-11-23T10:00:00.000Z",
        catalog: "AWS",
        engagement_id: "eng-1",
        invitation_id: "engi-1",
        invitation_status: "PENDING",
      }),
    );
    const engagements = await get(`/v1/tenants/${t}/partner/engagements`, { tenant_id: t, role: "member" });
    assert.equal(engagements.status, 200);
    const body = await engagements.json();
    assert.deepEqual(
      body.items.map((i: { engagement_id: string; invitation_status: string }) => [
        i.engagement_id,
        i.invitation_status,
      ]),
      [["eng-1", "PENDING"]],
    );
    const opportunities = await get(`/v1/tenants/${t}/partner/opportunities?limit=5`, { tenant_id: t, role: "member" });
    assert.deepEqual(await opportunities.json(), { items: [], next_cursor: null });
  });

  it("refuses a caller without the gateway's assertion, and answers 404 for a tenant the assertion does not name", async () => {
    const t = tenantId();
    const direct = await app.request(`/v1/tenants/${t}/partner/opportunities`);
    assert.equal(direct.status, 401);
    const other = await get(`/v1/tenants/${t}/partner/opportunities`, { tenant_id: tenantId(), role: "admin" });
    assert.equal(other.status, 404);
    assert.equal((await other.json()).code, "NOT_FOUND");
  });

  it("answers 400 with the field for a bad limit, and 400 INVALID_CURSOR for a cursor it did not issue", async () => {
    const t = tenantId();
    for (const query of ["limit=0", "limit=abc", "cursor=%22%3B"]) {
      const res = await get(`/v1/tenants/${t}/partner/opportunities?${query}`, { tenant_id: t, role: "member" });
      assert.equal(res.status, 400, query);
      const problem = await res.json();
      assert.equal(problem.code, "VALIDATION_FAILED");
      assert.ok(problem.errors.length > 0);
    }
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const cursor of ["bm90LWEtY3Vyc29y", forged(["1", "1"]), forged(["2026-11-01T00:00:00Z", "a\u0000b"])]) {
      const res = await get(`/v1/tenants/${t}/partner/opportunities?cursor=${cursor}`, {
        tenant_id: t,
        role: "member",
      });
      assert.deepEqual([res.status, (await res.json()).code], [400, "INVALID_CURSOR"], cursor);
    }
  });
});
