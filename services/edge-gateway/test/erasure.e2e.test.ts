import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E } from "./e2e-stack.ts";

/**
 * docs/erasure.md against the real schemas, and the acceptance of issue 24: after a user's deletion,
 * a query over every table of every service's schema finds their e-mail address nowhere but in the
 * legacy audit rows the interface allows. The stack runs every service with a database (identity,
 * connector, offers, partner, privacy, audit, notify), each on a throwaway schema named after this prefix.
 */
const PREFIX = "gw_er";
/** t_<prefix>[_<service suffix>]_<12 hex>, as each harness names its schema (openTestDatabase). */
const SCHEMA = new RegExp(`^t_${PREFIX}(?:_(cn|of|p|au|partner|nt))?_[0-9a-f]{12}$`);
const SERVICE_BY_SUFFIX: Record<string, string> = {
  "": "identity-svc",
  cn: "connector-svc",
  of: "offers-svc",
  p: "privacy-svc",
  au: "audit-svc",
  partner: "partner-svc",
  nt: "notify-svc",
};
/** Where the interface allows an address to outlive the account (interface.md "Erasure"). */
const ALLOWED = new Set(["audit-svc.audit_event_legacy"]);

/** `service.table` of every row of docs/erasure.md's table. */
function documentedTables(): Set<string> {
  const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "erasure.md"), "utf8");
  const rows = doc
    .split("\n")
    .filter((l) => /^\| (?!service \|)[a-z-]+ \| [a-z_]+ \|/.test(l))
    .map((l) => l.split("|").map((c) => c.trim()));
  for (const cells of rows) assert.equal(cells.length, 7, `five columns: ${cells.join("|")}`);
  return new Set(rows.map((c) => `${c[1]}.${c[2]}`));
}

describe("erasure: docs/erasure.md and the schemas", () => {
  let e2e: E2E;
  /** schema → service of every schema this stack created. */
  let schemas: Map<string, string>;
  const sql = <T>(query: string, params: unknown[] = []) => e2e.identity.db.orm.em.fork().execute<T[]>(query, params);

  beforeAll(async () => {
    e2e = await startE2E(PREFIX, {}, undefined, { connector: true, offers: true, privacy: {} });
    schemas = new Map();
    for (const { schema_name } of await sql<{ schema_name: string }>(
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE ?",
      [`t_${PREFIX}_%`],
    )) {
      const match = SCHEMA.exec(schema_name);
      if (match) schemas.set(schema_name, SERVICE_BY_SUFFIX[match[1] ?? ""]!);
    }
    assert.deepEqual([...new Set(schemas.values())].sort(), Object.values(SERVICE_BY_SUFFIX).sort());
  });
  afterAll(() => e2e?.close());

  const tablesOf = async (schema: string) =>
    (
      await sql<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
        [schema],
      )
    ).map((r) => r.table_name);

  it("lists every table of every service's schema, and no table that does not exist", async () => {
    const actual = new Set<string>();
    for (const [schema, service] of schemas) for (const t of await tablesOf(schema)) actual.add(`${service}.${t}`);
    // web-console runs in no stack here: its tables are read from its migrations' source, plus the
    // platform's three (shared/src/db/platform-migrations.ts, applied to every schema).
    const consoleSource = readFileSync(
      join(import.meta.dirname, "..", "..", "web-console", "src", "db", "migrations.ts"),
      "utf8",
    );
    for (const t of [...consoleSource.matchAll(/CREATE TABLE (\w+)/g)].map((m) => m[1]!))
      actual.add(`web-console.${t}`);
    for (const t of ["outbox_event", "processed_event", "schema_migration"]) actual.add(`web-console.${t}`);
    const documented = documentedTables();
    assert.deepEqual([...actual].filter((t) => !documented.has(t)).sort(), [], "tables missing from docs/erasure.md");
    assert.deepEqual(
      [...documented].filter((t) => !actual.has(t)).sort(),
      [],
      "tables in docs/erasure.md that no schema has",
    );
  });

  it("finds a deleted user's e-mail address in no table of any schema but the legacy audit rows", async () => {
    const user = await e2e.signUp();
    const other = await e2e.signUp();
    const stranger = await e2e.signUp();
    // A tenant of the user's own, soft-deleted (a membership of a soft-deleted tenant).
    const own = await e2e.call("POST", "/v1/tenants", { token: user.token, body: { name: "Own" } });
    assert.equal((await e2e.call("DELETE", `/v1/tenants/${own.json.id}`, { token: user.token })).status, 204);
    // A member of someone else's tenant through an invitation to the address, and one more pending.
    const theirs = await e2e.call("POST", "/v1/tenants", { token: other.token, body: { name: "Theirs" } });
    await e2e.addMember(other, theirs.json.id, user, "admin");
    const second = await e2e.call("POST", "/v1/tenants", { token: other.token, body: { name: "Second" } });
    const pending = await e2e.call("POST", `/v1/tenants/${second.json.id}/members`, {
      token: other.token,
      body: { email: user.email, role: "member" },
    });
    assert.equal(pending.status, 201, pending.text);
    // An invitation the user sent, and an export the user asked for.
    const sent = await e2e.call("POST", `/v1/tenants/${theirs.json.id}/members`, {
      token: user.token,
      body: { email: stranger.email, role: "member" },
    });
    assert.equal(sent.status, 201, sent.text);
    const exported = await e2e.call("POST", "/v1/users/me/export", { token: user.token });
    assert.equal(exported.status, 202, exported.text);

    const holding = async (needle: string) => {
      const found: string[] = [];
      for (const [schema, service] of schemas) {
        for (const table of await tablesOf(schema)) {
          const [row] = await sql<{ n: number }>(
            `SELECT count(*)::int AS n FROM "${schema}"."${table}" t WHERE t::text ILIKE ?`,
            [`%${needle}%`],
          );
          if (row!.n > 0) found.push(`${service}.${table}`);
        }
      }
      return found.filter((t) => !ALLOWED.has(t)).sort();
    };
    assert.ok((await holding(user.email)).length >= 2, "before: app_user and invitation hold it");

    const deleted = await e2e.call("DELETE", "/v1/users/me", { token: user.token });
    assert.equal(deleted.status, 200, deleted.text);

    assert.deepEqual(await holding(user.email), [], `${user.email} outlived the account`);
    assert.ok((await holding(stranger.email)).length > 0, "the query does find an address still in use");
  });
});
