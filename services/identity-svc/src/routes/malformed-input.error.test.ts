import assert from "node:assert/strict";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { afterAll, beforeAll, describe, it } from "vitest";
import { fillPath, type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * Table-driven bad input on every identity route, as an authorised owner (so validation, not
 * authorization, is what answers): every answer is a 4xx problem+json, never a 5xx, never a trace.
 */
const routes = identityRoutes as readonly RouteSpec[];
let h: Harness;
let owner: TestUser;
let tenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_malformed" });
  owner = await h.signUp();
  tenantId = (await h.createTenant(owner)).id;
});
afterAll(() => h.close());

const BAD_BODIES: { what: string; raw: string; headers?: Record<string, string> }[] = [
  { what: "null", raw: "null" },
  { what: "an array", raw: "[1,2,3]" },
  { what: "a string", raw: '"hello"' },
  { what: "a number", raw: "42" },
  { what: "an empty body", raw: "" },
  { what: "truncated JSON", raw: '{"name": "x' },
  {
    what: "wrong field types",
    raw: '{"name": 1, "email": false, "password": {}, "role": [], "scope": null, "marketplace_offers": "on"}',
  },
  { what: "a prototype-pollution attempt", raw: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}' },
  { what: "deep nesting", raw: `${"[".repeat(5000)}${"]".repeat(5000)}` },
  { what: "a lone surrogate", raw: '{"name": "\\ud800"}' },
  // One field per body, so strict objects do not refuse the unknown keys before the value is seen.
  { what: "a NUL in a name", raw: '{"name": "a\\u0000b"}' },
  { what: "a NUL in a refresh token", raw: '{"refresh_token": "rt_\\u0000"}' },
  { what: "a NUL in an e-mail", raw: '{"email": "a\\u0000@x.test", "password": "p\\u0000assword12"}' },
  { what: "a NUL in a key", raw: '{"key": "fs_\\u0000"}' },
  { what: "XML", raw: "<a/>", headers: { "content-type": "application/xml" } },
];
const BAD_IDS = ["x", "tnt_", "usr_short", "tnt_%00", "tnt_../../etc", `tnt_${"a".repeat(200)}`, "%E0%A4%A"];

async function assertProblem(res: Response, why: string) {
  assert.ok(res.status >= 400 && res.status < 500, `${why}: ${res.status}`);
  assert.equal(res.headers.get("content-type"), "application/problem+json", why);
  const text = await res.text();
  assert.doesNotMatch(text, /at .+\.(ts|js):\d+|Exception|SELECT /, why);
  const body = JSON.parse(text) as { code: string; status: number };
  assert.equal(body.status, res.status, why);
  assert.match(body.code, /^[A-Z][A-Z0-9_]*$/, why);
}

describe("malformed input on every identity route", () => {
  it("answers every bad body with a 4xx problem", async () => {
    for (const r of routes.filter((x) => x.body !== undefined)) {
      const path = fillPath(r.path, { id: tenantId, sub: owner.sub, key_id: "key_0000000000aaaaaaaaaa" });
      for (const b of BAD_BODIES) {
        const res = await h.call(r.method, path, {
          as: r.auth === "public" ? undefined : owner.identity,
          raw: b.raw,
          headers: b.headers ?? {},
        });
        await assertProblem(res, `${r.id} with ${b.what}`);
      }
    }
  });

  it("answers every malformed path id with a 4xx problem", async () => {
    for (const r of routes.filter((x) => x.params !== undefined)) {
      for (const bad of BAD_IDS) {
        for (const field of ["id", "sub", "key_id"] as const) {
          if (!r.path.includes(`{${field}}`)) continue;
          const values = { id: tenantId, sub: owner.sub, key_id: "key_0000000000aaaaaaaaaa", [field]: bad };
          const path = fillPath(r.path, values);
          const body = r.body === undefined ? undefined : {};
          const res = await h.call(r.method, path, { as: owner.identity, body });
          await assertProblem(res, `${r.id} with ${field}=${bad}`);
        }
      }
    }
  });
});
