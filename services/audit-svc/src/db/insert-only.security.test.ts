import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, test } from "vitest";
import { domainEvent, newSub, newTenantId } from "../testing/events.ts";
import { type AuditHarness, startAuditHarness, TEST_ROLES } from "../testing/harness.ts";
import { recordEvent } from "../verbs/record-event.ts";
import { openAuditDatabase } from "./open-audit-database.ts";

let h: AuditHarness;
beforeAll(async () => {
  h = await startAuditHarness({ prefix: "insert_only" });
  const sub = newSub();
  for (let i = 0; i < 3; i++)
    await h.inTransaction((em) =>
      recordEvent(
        em,
        h.schema,
        domainEvent("MembershipAdded.v1", { tenant_id: newTenantId(), sub, role: "member" }, { subject: sub }),
        h.logger,
      ),
    );
});
afterAll(() => h?.close());

const svc = (sql: string) => h.inTransaction((em) => em.execute(sql));
const refused = async (run: () => Promise<unknown>, pattern: RegExp) => {
  await assert.rejects(run, (err: Error) => {
    assert.match(err.message, pattern);
    return true;
  });
};
const count = async () => Number((await h.asOwner<{ n: string }[]>("SELECT count(*) AS n FROM audit_event"))[0]!.n);

describe("audit rows are insert-only in the database", () => {
  test("the service's role can insert and read them", async () => {
    assert.equal(await count(), 3);
    const rows = await svc(`SELECT event_type FROM "${h.schema}".audit_event`);
    assert.equal(rows.length, 3);
  });

  test("the service's role may not UPDATE, DELETE or TRUNCATE them (permission denied)", async () => {
    const key = { audit_event: "id", audit_event_legacy: "id", audit_archive_batch: "seq" };
    for (const [table, column] of Object.entries(key)) {
      await refused(() => svc(`UPDATE "${h.schema}".${table} SET ${column} = ${column}`), /permission denied/);
      await refused(() => svc(`DELETE FROM "${h.schema}".${table}`), /permission denied/);
      await refused(() => svc(`TRUNCATE "${h.schema}".${table}`), /permission denied/);
    }
    await refused(
      () =>
        svc(
          `INSERT INTO "${h.schema}".audit_event_legacy (legacy_id, event_type, occurred_at) VALUES ('x1', 'login', '2025-01-01')`,
        ),
      /permission denied/,
    );
    assert.equal(await count(), 3);
  });

  test("the owner and a superuser are stopped by the trigger", async () => {
    for (const run of [h.asOwner, h.asAdmin]) {
      await refused(
        () => run("UPDATE audit_event SET request_id = 'req_changed1'"),
        /UPDATE on .*audit_event refused: audit records are insert-only/,
      );
      await refused(() => run("DELETE FROM audit_event"), /DELETE on .*audit_event refused/);
      await refused(() => run("TRUNCATE audit_event"), /TRUNCATE on .*audit_event refused/);
      await refused(() => run("TRUNCATE audit_event_legacy"), /TRUNCATE on .*audit_event_legacy refused/);
      await refused(() => run("TRUNCATE audit_archive_batch"), /TRUNCATE on .*audit_archive_batch refused/);
    }
    assert.equal(await count(), 3);
  });

  test("even the retention flag deletes nothing that no archive batch covers", async () => {
    await refused(
      () => h.asAdmin("SELECT set_config('flowstate.audit_retention', 'on', true); DELETE FROM audit_event"),
      /DELETE on .*audit_event refused/,
    );
    const deleted = await h.inTransaction((em) =>
      em.execute<{ n: string }[]>(`SELECT "${h.schema}".audit_delete_archived('400 days', 100) AS n`),
    );
    assert.equal(Number(deleted[0]!.n), 0);
    assert.equal(await count(), 3);
  });

  test("the service refuses to run as a role that could change audit rows", async () => {
    await assert.rejects(
      openAuditDatabase({ serviceUrl: h.urls.owner, schema: h.schema }),
      /must connect as its insert-only role.*owns the schema/,
    );
    await assert.rejects(
      openAuditDatabase({ serviceUrl: h.urls.admin, schema: h.schema }),
      /must connect as its insert-only role.*superuser/,
    );
  });

  test("the owner and the service's role are different roles", () => {
    assert.notEqual(TEST_ROLES.owner, TEST_ROLES.service);
  });
});
