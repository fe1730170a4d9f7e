import assert from "node:assert/strict";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { RouteSpec, ServiceName } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import { disableAccount } from "@flowstate/identity-svc/verbs/disable-account";
import { IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * The service seam (shared/src/seam/, ADR 0012) from the outside: requests sent straight to each
 * service, not through the gateway, with assertions genuinely signed with the stack's key (what a
 * caller on the hop, or a gateway bug, could present). Every service's tenant routes come from the
 * registry, so a new route is covered the day it is declared; its handler does no access check of
 * its own. identity-svc is not in the table: its tenant routes decide from its own membership rows
 * (ADR 0012, decision 6) and are covered by its own tests.
 */
let e2e: E2E;
let owner: Account;
let admin: Account;
let member: Account;
let outsider: Account;
let tenantId: string;
let otherTenantId: string;

const user = (a: Account): VerifiedIdentity => ({ kind: "user", sub: a.sub, sid: a.sid });

async function newTenant(by: Account, name: string): Promise<string> {
  const res = await e2e.call("POST", "/v1/tenants", { token: by.token, body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.json.id as string;
}

async function keyOf(creator: Account, scope: "read" | "write"): Promise<VerifiedIdentity> {
  const res = await e2e.call("POST", `/v1/tenants/${tenantId}/api-keys`, {
    token: creator.token,
    body: { name: `seam-${scope}`, scope },
  });
  assert.equal(res.status, 201, res.text);
  recordSecret(res.json.secret as string);
  return { kind: "api_key", sub: creator.sub, key_id: res.json.key_id, tenant_id: tenantId, scope };
}

/** A fresh admin of the tenant (each revocation case spends one). */
async function newAdmin(): Promise<Account> {
  const a = await e2e.signUp();
  await e2e.addMember(owner, tenantId, a, "admin");
  return a;
}

beforeAll(async () => {
  e2e = await startE2E("seam", {}, undefined, { connector: true, offers: true, privacy: {} });
  [owner, admin, member, outsider] = await Promise.all([e2e.signUp(), e2e.signUp(), e2e.signUp(), e2e.signUp()]);
  tenantId = await newTenant(owner, "Seam");
  otherTenantId = await newTenant(outsider, "Elsewhere");
  await e2e.addMember(owner, tenantId, admin, "admin");
  await e2e.addMember(owner, tenantId, member, "member");
}, 120_000);
afterAll(() => e2e?.close());

/** A signed request exactly as a gateway would send it, straight to the service. */
interface Captured {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function capture(
  service: ServiceName,
  method: string,
  path: string,
  identity: VerifiedIdentity,
  tenant: TenantContext | undefined,
  options: { body?: string; traceparent?: string } = {},
): Captured {
  const url = e2e.urls[service];
  if (!url) throw new Error(`${service} is not in this stack`);
  const binding = { method, target: path, bodySha256: sha256Base64url(options.body ?? "") };
  const headers: Record<string, string> = {
    [IDENTITY_HEADER]: signedAs(e2e.identity.secret, service, binding, { identity, channel: "rest", tenant }),
  };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.traceparent !== undefined) headers.traceparent = options.traceparent;
  return { url: `${url}${path}`, method, headers, body: options.body };
}

async function send(c: Captured): Promise<{ status: number; code: unknown; text: string }> {
  const res = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
  const text = await res.text();
  let code: unknown;
  try {
    code = (JSON.parse(text) as { code?: unknown }).code;
  } catch {}
  return { status: res.status, code, text };
}

// Any shape-valid value: the seam refuses before the route's own validation runs.
const SAMPLE: Record<string, string> = { offer_id: "offer-seam0000000", change_set_id: "changeset0000000" };
const pathOf = (r: RouteSpec, tenant: string) =>
  r.path.replace("{id}", tenant).replace(/\{([a-z_]+)\}/g, (_, name: string) => SAMPLE[name] ?? `x${name}`);
const bodyOf = (r: RouteSpec) => (r.body ? "{}" : undefined);
const isWrite = (r: RouteSpec) => r.method !== "GET";

const tenantRoutes = routes.filter((r) => r.auth === "tenant" && r.service !== "identity-svc");

describe("every service's tenant routes, sent straight to the service", () => {
  it("covers every service with tenant routes but identity-svc", () => {
    assert.deepEqual([...new Set(tenantRoutes.map((r) => r.service))].sort(), [
      "audit-svc",
      "connector-svc",
      "notify-svc",
      "offers-svc",
      "partner-svc",
    ]);
  });

  it("refuses a non-member (signed for another tenant) with the 404 of a missing tenant", async () => {
    for (const r of tenantRoutes) {
      const path = pathOf(r, tenantId);
      const c = capture(
        r.service,
        r.method,
        path,
        user(outsider),
        { tenant_id: otherTenantId, role: "owner" },
        {
          body: bodyOf(r),
        },
      );
      const res = await send(c);
      assert.deepEqual([res.status, res.code], [404, "NOT_FOUND"], r.id);
    }
  });

  it("refuses a read key on a write route (INSUFFICIENT_SCOPE) and any key on a token-only route", async () => {
    const read = await keyOf(admin, "read");
    const write = await keyOf(admin, "write");
    let cases = 0;
    for (const r of tenantRoutes) {
      const path = pathOf(r, tenantId);
      if (!r.apiKey) {
        const c = capture(
          r.service,
          r.method,
          path,
          write,
          { tenant_id: tenantId, role: "admin" },
          { body: bodyOf(r) },
        );
        const res = await send(c);
        assert.deepEqual([res.status, res.code], [403, "API_KEY_NOT_ALLOWED"], r.id);
        cases++;
      } else if (r.apiKey === "write") {
        const c = capture(
          r.service,
          r.method,
          path,
          read,
          { tenant_id: tenantId, role: "member" },
          { body: bodyOf(r) },
        );
        const res = await send(c);
        assert.deepEqual([res.status, res.code], [403, "INSUFFICIENT_SCOPE"], r.id);
        cases++;
      }
    }
    assert.ok(cases > 0);
  });

  it("refuses a role below the route's minRole", async () => {
    let cases = 0;
    for (const r of tenantRoutes.filter((x) => x.minRole && x.minRole !== "member")) {
      const low = r.minRole === "owner" ? admin : member;
      const role = r.minRole === "owner" ? "admin" : "member";
      const c = capture(
        r.service,
        r.method,
        pathOf(r, tenantId),
        user(low),
        { tenant_id: tenantId, role },
        {
          body: bodyOf(r),
        },
      );
      const res = await send(c);
      assert.deepEqual([res.status, res.code], [403, "INSUFFICIENT_ROLE"], r.id);
      cases++;
    }
    assert.ok(cases > 0);
  });

  it("refuses a write by a demoted creator's key and by a disabled account, signed while they were live", async () => {
    const writes = tenantRoutes.filter(isWrite);
    assert.ok(writes.length > 0);
    // Signed as the gateway signed them before the demotion and the disabling.
    const creator = await newAdmin();
    const key = await keyOf(creator, "write");
    const disabled = await newAdmin();
    const demote = await e2e.call("PATCH", `/v1/tenants/${tenantId}/members/${creator.sub}`, {
      token: owner.token,
      body: { role: "member" },
    });
    assert.equal(demote.status, 200, demote.text);
    await disableAccount({ ctx: e2e.identity.ctx({ kind: "system" }), sub: disabled.sub });
    for (const r of writes) {
      const path = pathOf(r, tenantId);
      if (r.apiKey === "write") {
        const c = capture(r.service, r.method, path, key, { tenant_id: tenantId, role: "admin" }, { body: bodyOf(r) });
        const res = await send(c);
        assert.deepEqual([res.status, res.code], [401, "INVALID_API_KEY"], r.id);
      }
      const asUser = capture(
        r.service,
        r.method,
        path,
        user(disabled),
        { tenant_id: tenantId, role: "admin" },
        {
          body: bodyOf(r),
        },
      );
      const res = await send(asUser);
      assert.deepEqual([res.status, res.code], [401, "SESSION_REVOKED"], r.id);
    }
  });
});

/**
 * A captured write replayed after the credential was revoked, inside the assertion window: each
 * request is signed (captured) while the credential is live, sent once (it reaches the verb), the
 * credential is revoked, and the identical request is sent again. audit-svc and partner-svc have
 * no write at all (reads only), so there is nothing to replay there.
 */
describe("a replayed captured write after a revocation", () => {
  const M = () => `/v1/tenants/${tenantId}/integrations/marketplace`;
  const writes: { service: ServiceName; method: string; path: () => string; body?: string; keys: boolean }[] = [
    { service: "connector-svc", method: "DELETE", path: M, keys: true },
    {
      service: "offers-svc",
      method: "POST",
      path: () => `${M()}/offers/offer-seam0000000/expire`,
      keys: true,
    },
    { service: "privacy-svc", method: "POST", path: () => "/v1/users/me/export", keys: false },
  ];
  const tenantOf = (service: ServiceName): TenantContext | undefined =>
    service === "privacy-svc" ? undefined : { tenant_id: tenantId, role: "admin" };

  for (const w of writes) {
    it(`${w.service}: refused after sign-out`, async () => {
      const a = await newAdmin();
      const c = capture(w.service, w.method, w.path(), user(a), tenantOf(w.service), { body: w.body });
      assert.notEqual((await send(c)).status, 401);
      const out = await e2e.call("POST", "/v1/auth/signout", { token: a.token });
      assert.equal(out.status, 204, out.text);
      const replay = await send(c);
      assert.deepEqual([replay.status, replay.code], [401, "SESSION_REVOKED"], replay.text);
    });

    it(`${w.service}: refused after account deletion`, async () => {
      const a = await newAdmin();
      const c = capture(w.service, w.method, w.path(), user(a), tenantOf(w.service), { body: w.body });
      assert.notEqual((await send(c)).status, 401);
      const deleted = await e2e.call("DELETE", "/v1/users/me", { token: a.token, body: { password: a.password } });
      assert.equal(deleted.status, 200, deleted.text);
      const replay = await send(c);
      assert.deepEqual([replay.status, replay.code], [401, "SESSION_REVOKED"], replay.text);
    });

    if (w.keys) {
      it(`${w.service}: refused after key revocation`, async () => {
        const key = await keyOf(admin, "write");
        const c = capture(w.service, w.method, w.path(), key, tenantOf(w.service), { body: w.body });
        assert.notEqual((await send(c)).status, 401);
        const keyId = (key as { key_id: string }).key_id;
        const revoked = await e2e.call("DELETE", `/v1/tenants/${tenantId}/api-keys/${keyId}`, { token: admin.token });
        assert.equal(revoked.status, 204, revoked.text);
        const replay = await send(c);
        assert.deepEqual([replay.status, replay.code], [401, "INVALID_API_KEY"], replay.text);
      });
    }
  }
});

describe("a malformed traceparent sent straight to every service", () => {
  const valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const shapes = [
    "garbage",
    "",
    " ",
    "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
    "00-00000000000000000000000000000000-b7ad6b7169203331-01",
    "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
    "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",
    `${valid}-extra`,
    `${valid}, ${valid}`,
    `00-${"a".repeat(4000)}`,
  ];

  it("never answers 5xx, on a read of every service and on writes that emit events", async () => {
    const reads: [ServiceName, string, TenantContext | undefined][] = [
      ["identity-svc", `/v1/tenants/${tenantId}`, { tenant_id: tenantId, role: "owner" }],
      ["connector-svc", `/v1/tenants/${tenantId}/integrations/marketplace`, { tenant_id: tenantId, role: "owner" }],
      ["offers-svc", `/v1/tenants/${tenantId}/integrations/marketplace/offers`, { tenant_id: tenantId, role: "owner" }],
      ["audit-svc", `/v1/tenants/${tenantId}/audit-events`, { tenant_id: tenantId, role: "owner" }],
      ["partner-svc", `/v1/tenants/${tenantId}/partner/opportunities`, { tenant_id: tenantId, role: "owner" }],
      ["privacy-svc", "/v1/users/me/export/exp_0123456789abcdefghij", undefined],
    ];
    for (const traceparent of shapes) {
      for (const [service, path, tenant] of reads) {
        const res = await send(capture(service, "GET", path, user(owner), tenant, { traceparent }));
        assert.ok(res.status < 500, `${service} ${traceparent.slice(0, 40)}: ${res.status} ${res.text}`);
      }
      // Writes whose events would carry the trace: connector's disconnect, identity's rename, privacy's export.
      const writes: [ServiceName, string, string, string | undefined][] = [
        ["connector-svc", "DELETE", `/v1/tenants/${tenantId}/integrations/marketplace`, undefined],
        [
          "identity-svc",
          "PATCH",
          `/v1/tenants/${tenantId}`,
          JSON.stringify({ name: `Seam ${shapes.indexOf(traceparent)}` }),
        ],
      ];
      for (const [service, method, path, body] of writes) {
        const tenant = { tenant_id: tenantId, role: "owner" } as const;
        const res = await send(capture(service, method, path, user(owner), tenant, { body, traceparent }));
        assert.ok(res.status < 500, `${service} ${method} ${traceparent.slice(0, 40)}: ${res.status} ${res.text}`);
      }
      // A new export always emits ExportRequested: a fresh user each time (one active job per user).
      const fresh = await e2e.signUp();
      const exported = await send(
        capture("privacy-svc", "POST", "/v1/users/me/export", user(fresh), undefined, { traceparent }),
      );
      assert.equal(exported.status, 202, `privacy-svc POST ${traceparent.slice(0, 40)}: ${exported.text}`);
    }
  });

  it("writes the event with a valid trace or none: privacy-svc's ExportRequested", async () => {
    for (const [traceparent, expected] of [
      ["00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", undefined],
      [valid, valid],
    ] as const) {
      const a = await e2e.signUp();
      const res = await send(
        capture("privacy-svc", "POST", "/v1/users/me/export", user(a), undefined, { traceparent }),
      );
      assert.equal(res.status, 202, res.text);
      const [row] = await e2e.privacy!.db.orm.em.fork().execute<{ envelope: { trace?: string } }[]>(
        `SELECT envelope FROM "${e2e.privacy!.db.schema}".outbox_event
            WHERE event_key = 'ExportRequested.v1' AND envelope->>'subject' = ?`,
        [a.sub],
      );
      assert.ok(row, "ExportRequested was written");
      assert.equal(row.envelope.trace, expected);
    }
  });
});
