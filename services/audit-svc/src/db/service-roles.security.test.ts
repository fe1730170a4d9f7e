import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { provisionServiceRoles, type ServiceRole, serviceRoles } from "@flowstate/shared/db/service-roles";
import { dropRoles } from "@flowstate/shared/testing/drop-roles";
import { afterAll, beforeAll, describe, test } from "vitest";
import { domainEvent, newSub, newTenantId } from "../testing/events.ts";
import { type AuditHarness, startAuditHarness } from "../testing/harness.ts";
import { recordEvent } from "../verbs/record-event.ts";
import { withConnection } from "./roles.ts";

/**
 * Issue 20, finding 5: every service but audit-svc connected as the `postgres` superuser, which can
 * `SET session_replication_role = replica` (triggers off) and delete audit rows. Each service now
 * logs in as its own role owning only its schema (shared/src/db/service-roles.ts, as the local
 * stack provisions them), so none reaches another's schema or audit's, and audit-svc's own role
 * only inserts. Throwaway roles and schemas, the same provisioning code.
 */
let h: AuditHarness;
let roles: ServiceRole[];
let urls: Map<string, string>;
const tag = randomBytes(4).toString("hex");

beforeAll(async () => {
  h = await startAuditHarness({ prefix: "svc_roles" });
  const sub = newSub();
  await h.inTransaction((em) =>
    recordEvent(
      em,
      h.schema,
      domainEvent("MembershipAdded.v1", { tenant_id: newTenantId(), sub, role: "member" }, { subject: sub }),
      h.logger,
    ),
  );
  roles = serviceRoles(`t${tag}`, "test").map((r) => ({ ...r, schema: `t_sr${tag}_${r.schema}` }));
  urls = await provisionServiceRoles(h.urls.admin, roles);
  // Each role migrates its own schema as the services do at boot (the platform's outbox tables).
  for (const r of roles) {
    const orm = await openDatabase({ url: urls.get(r.service)!, schema: r.schema, entities: [], migrations: [] });
    await orm.close();
  }
});

afterAll(async () => {
  await dropRoles(h.urls.admin, {
    schemas: (roles ?? []).map((r) => r.schema),
    roles: (roles ?? []).map((r) => r.role),
  });
  await h?.close();
});

const as = (url: string, sql: string) => withConnection(url, (em) => em.execute(sql));
const refused = (run: () => Promise<unknown>, pattern: RegExp, what: string) =>
  assert.rejects(run, (err: Error) => {
    assert.match(err.message, pattern, what);
    return true;
  });

describe("each service's database role", () => {
  test("covers every service with a database but audit-svc, none a superuser", async () => {
    assert.deepEqual(roles.map((r) => r.service).sort(), [
      "connector-svc",
      "identity-svc",
      "notify-svc",
      "offers-svc",
      "partner-svc",
      "privacy-svc",
      "web-console",
    ]);
    for (const r of roles) {
      const [me] = (await as(
        urls.get(r.service)!,
        "SELECT current_user AS u, usesuper FROM pg_user WHERE usename = current_user",
      )) as {
        u: string;
        usesuper: boolean;
      }[];
      assert.deepEqual(me, { u: r.role, usesuper: false }, r.service);
    }
  });

  test("writes in its own schema, and cannot touch another service's schema", async () => {
    for (const [i, r] of roles.entries()) {
      const url = urls.get(r.service)!;
      await as(url, `INSERT INTO "${r.schema}".processed_event (event_id, event_key) VALUES ('e-${i}', 'own')`);
      const other = roles[(i + 1) % roles.length]!;
      for (const sql of [
        `SELECT * FROM "${other.schema}".processed_event`,
        `INSERT INTO "${other.schema}".processed_event (event_id, event_key) VALUES ('x', 'x')`,
        `DELETE FROM "${other.schema}".processed_event`,
        `CREATE TABLE "${other.schema}".intruder (id int)`,
        `CREATE SCHEMA intruder_${tag}`,
      ])
        await refused(() => as(url, sql), /permission denied/, `${r.service}: ${sql}`);
    }
  });

  test("cannot read, insert, change or delete audit rows, nor switch triggers off", async () => {
    for (const r of roles) {
      const url = urls.get(r.service)!;
      for (const sql of [
        `SELECT * FROM "${h.schema}".audit_event`,
        `INSERT INTO "${h.schema}".audit_event (event_id) VALUES (gen_random_uuid())`,
        `UPDATE "${h.schema}".audit_event SET request_id = 'req_changed1'`,
        `DELETE FROM "${h.schema}".audit_event`,
        `TRUNCATE "${h.schema}".audit_event`,
      ])
        await refused(() => as(url, sql), /permission denied/, `${r.service}: ${sql}`);
      await refused(
        () => as(url, "SET session_replication_role = replica"),
        /permission denied to set parameter/,
        r.service,
      );
    }
    const rows = await h.asAdmin<{ n: string }[]>("SELECT count(*) AS n FROM audit_event");
    assert.equal(Number(rows[0]!.n), 1);
  });

  test("audit-svc's own role only inserts: no UPDATE, DELETE, or triggers off", async () => {
    for (const sql of [
      `UPDATE "${h.schema}".audit_event SET request_id = 'req_changed1'`,
      `DELETE FROM "${h.schema}".audit_event`,
    ])
      await refused(() => as(h.urls.service, sql), /permission denied/, sql);
    await refused(
      () => as(h.urls.service, "SET session_replication_role = replica"),
      /permission denied to set parameter/,
      "audit-svc",
    );
  });
});
