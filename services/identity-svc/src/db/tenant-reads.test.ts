import { idList } from "@flowstate/shared/db/prepared-read";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { planCounts, planNodes } from "@flowstate/shared/testing/query-plans";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTenantRows } from "../testing/tenant-rows.ts";
import { entities } from "./entities.ts";
import { migrations } from "./migrations.ts";
import { type TenantReads, tenantReads } from "./tenant-reads.ts";

/**
 * The grouped reads look each id up by its index, whatever the tables hold. As plain joins,
 * PostgreSQL hashed the whole tenant and membership tables for a batch of a few ids once they
 * held a few hundred rows (the bench database's 500 tenants): this file's tenants gave
 * sequential scans in both the custom and the generic plan before the statements were changed.
 * The batch is the coalescer's largest (64 ids): with 5, the tenant views' join of the caller's
 * role outside its subquery was planned by index, and with 64 it hashed the membership table.
 */

const TENANTS = 500;
let db: TestDatabase;
let reads: TenantReads;

beforeAll(async () => {
  db = await openTestDatabase({ prefix: "tenant_reads", entities, migrations });
  reads = tenantReads(db.orm, db.schema);
  // Each tenant with an owner, an admin and two members (one of them deleted), two flags and two keys; the last deleted.
  await seedTenantRows(db.orm, db.schema, TENANTS);
});
afterAll(() => db?.close());

describe("identity-svc's grouped tenant reads", () => {
  it("answer each id of a batch: the tenant with its owner and the caller's role, none for a deleted tenant", async () => {
    const found = await Promise.all([
      reads.byMember.load(["u4", "t2"]), // the owner
      reads.byMember.load(["u6", "t2"]), // a member
      reads.byMember.load(["u0", "t2"]), // another tenant's owner: no role here
      reads.byMember.load(["u0", `t${TENANTS}`]), // deleted
      reads.byMember.load(["u0", "nope"]),
    ]);
    expect(found.map((t) => t && { id: t.id, owner: t.owner_sub, role: t.role })).toEqual([
      { id: "t2", owner: "u4", role: "owner" },
      { id: "t2", owner: "u4", role: "member" },
      { id: "t2", owner: "u4", role: null },
      undefined,
      undefined,
    ]);
  });

  it("answer each tenant's lists in order, with the caller's role: active members owner first, flags, keys newest first", async () => {
    const [members, flags, keys, outsider, none, deleted, empty] = await Promise.all([
      reads.members.load("u9", "t3"), // an admin
      reads.flags.load("u10", "t3"), // a member
      reads.apiKeys.load("u8", "t3"), // the owner
      reads.members.load("u0", "t3"), // another tenant's owner
      reads.members.load("u8", "nope"),
      reads.flags.load("u0", `t${TENANTS}`), // deleted
      reads.apiKeys.load(null, "t4"), // no caller: a route that decided access itself
    ]);
    expect(members?.role).toBe("admin");
    expect(members?.rows.map((m) => [m.sub, m.role])).toEqual([
      ["u8", "owner"],
      ["u9", "admin"],
      ["u10", "member"],
    ]);
    expect(flags?.role).toBe("member");
    expect(flags?.rows.map((f) => f.flag).sort()).toEqual(["a", "b"]);
    expect(keys?.role).toBe("owner");
    expect(keys?.rows.map((k) => k.key_id)).toEqual(["k32", "k31"]);
    expect(outsider).toEqual({ role: null, rows: expect.any(Array) });
    expect(none).toBeNull();
    expect(deleted).toBeNull();
    expect(empty?.role).toBeNull();
    expect(empty?.rows.map((k) => k.key_id)).toEqual(["k42", "k41"]);
  });

  it("answer an active tenant whose list is empty with its caller's role and no rows", async () => {
    await db.orm.em.fork().execute(`DELETE FROM "${db.schema}".feature_flag WHERE tenant_id = 't5'`);
    expect(await reads.flags.load("u17", "t5")).toEqual({ role: "admin", rows: [] });
    const em = db.orm.em.fork();
    expect(await em.transactional((tx) => reads.flags.inTransaction(tx, "u16", "t5"))).toEqual({
      role: "owner",
      rows: [],
    });
    expect(await em.transactional((tx) => reads.members.inTransaction(tx, "u16", `t${TENANTS}`))).toBeNull();
  });

  const ids = Array.from({ length: 64 }, (_, i) => `t${i * 7 + 5}`);
  const statements = () => [
    {
      name: "tenant views",
      text: reads.views.text,
      values: [idList(ids.map(() => "u1")), idList(ids)],
    },
    ...(
      [
        ["members", reads.members],
        ["flags", reads.flags],
        ["API keys", reads.apiKeys],
      ] as const
    ).map(([name, lists]) => ({
      name,
      text: lists.statement.text,
      values: [idList(ids.map(() => "u1")), idList(ids)],
    })),
  ];
  for (const mode of ["force_custom_plan", "force_generic_plan"] as const) {
    it(`scan no table whole for a batch of 64 ids (${mode})`, async () => {
      for (const { name, text, values } of statements()) {
        const nodes = await planNodes(db.orm, text, values, mode);
        expect(
          nodes.filter((n) => n.startsWith("Seq Scan")),
          `${name}: ${nodes.join(" > ")}`,
        ).toEqual([]);
      }
    });
  }

  it("keep one plan per prepared statement: planned again on every execution, a read cost twice what it ran for", async () => {
    for (const { name, text, values } of statements()) {
      // Batches of 1 to 4 ids, as the coalescer sends them under a light load.
      const executions = Array.from({ length: 20 }, (_, n) =>
        values.map((v) => idList((JSON.parse(v as string) as string[]).slice(0, (n % 4) + 1))),
      );
      const plans = await planCounts(db.orm, text, executions);
      // PostgreSQL plans the first five executions for their values, then keeps the generic plan
      // unless it looks costlier than those custom plans did.
      expect({ name, custom: plans.custom }).toEqual({ name, custom: 5 });
      expect(plans.generic, name).toBe(15);
    }
  });
});
