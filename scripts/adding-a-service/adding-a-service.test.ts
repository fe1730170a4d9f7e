import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { type Harness, startHarness, type TestUser } from "@flowstate/identity-svc/testing/harness";
import { bodyless, type RequestBinding, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { gatewaySign, Keyring, pairSecretAt, serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createApp } from "./widgets-svc/app.ts";
import { WIDGETS } from "./widgets-svc/catalog-entry.ts";
import type { WidgetsApp } from "./widgets-svc/deps.ts";
import { migrations } from "./widgets-svc/migrations.ts";

/**
 * docs/adding-a-service.md, followed for a fixture service (./widgets-svc: a catalog entry,
 * routes in a registry, one `mountRoute` file per route, verbs that check nothing, its own table)
 * and shown to get the seam for free: deny by default, the tenant rule of its registry entries,
 * and the credential re-check of every write against a real identity-svc. The keys are what the
 * bootstrap would derive for the pair `gateway--widgets-svc` (ADR 0014).
 */
const logger = createLogger({ service: "widgets-svc", level: "silent" });
let identity: Harness;
let db: TestDatabase;
let app: WidgetsApp;
let door: Keyring;
let owner: TestUser;
let tenantId: string;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  identity = await startHarness({ prefix: "adding_service" });
  closing.push(() => identity.close());
  const served = await serve(identity.app, { host: "127.0.0.1", port: 0, logger, handleSignals: false });
  closing.push(() => served.shutdown("test done"));
  db = await openTestDatabase({ prefix: "widgets", migrations, logger });
  closing.push(() => db.close());
  const pair = "gateway--widgets-svc";
  const pairs = new Map([[pair, pairSecretAt(identity.secret, pair, 1)]]);
  door = new Keyring("edge-gateway", pairs);
  app = createApp(
    {
      orm: db.orm,
      schema: db.schema,
      logger,
      callerKeys: new Keyring(WIDGETS, pairs),
      // A real service lists itself in the `callers` of `internal.credentials.check` (step 4.4) and
      // signs with its own pair; the fixture, in no registry, borrows connector-svc's place there.
      credentials: remoteCredentials({
        identityUrl: served.url,
        sign: serviceSigner(testKeyring("connector-svc", identity.secret), "identity-svc"),
      }),
    },
    { checkResponses: true },
  );
  owner = await identity.signUp();
  tenantId = (await identity.createTenant(owner)).id;
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

const widgetPath = (tenant = tenantId) => `/v1/tenants/${tenant}/widgets/wdg_${randomBytes(6).toString("hex")}`;

/** A request as the gateway forwards it: the caller, the tenant it resolved, signed for this request. */
function forwarded(
  method: "GET" | "PUT",
  path: string,
  as: VerifiedIdentity,
  tenant: TenantContext | undefined,
  body?: unknown,
) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const binding: RequestBinding = text
    ? { method, target: path, bodySha256: sha256Base64url(text) }
    : bodyless(method, path);
  const header = gatewaySign(door, WIDGETS, binding, { identity: as, tenant, channel: "rest" });
  return { method, headers: { "flowstate-identity": header, "content-type": "application/json" }, body: text };
}
const send = async (path: string, init: ReturnType<typeof forwarded>) => {
  const res = await app.request(path, init);
  const json = (await res.json().catch(() => ({}))) as { code?: string };
  return [res.status, json.code];
};

describe("a service added by docs/adding-a-service.md", () => {
  it("follows the doc's layout: catalog entry, registry, one route per file, verbs, migrations", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../docs/adding-a-service.md"), "utf8");
    for (const step of [
      "contracts/src/services/catalog.ts",
      "contracts/src/rest/routes.ts",
      "mountRoute",
      "defineConsumer",
      "call.transaction",
      "keys per caller",
    ])
      assert.ok(doc.includes(step), step);
  });

  it("denies by default: unsigned, forged or a service identity on /v1, any path, 401", async () => {
    const path = widgetPath();
    for (const p of [path, "/v1/nothing", "/internal/v1/widgets", "/"])
      assert.equal((await app.request(p)).status, 401, p);
    const forged = new Keyring("edge-gateway", new Map([["gateway--widgets-svc", pairSecretAt("another", "x", 1)]]));
    const header = gatewaySign(forged, WIDGETS, bodyless("GET", path), { identity: owner.identity, channel: "rest" });
    assert.equal((await app.request(path, { headers: { "flowstate-identity": header } })).status, 401);
    assert.equal((await app.request("/healthz")).status, 200);
  });

  it("applies its registry entries' tenant rule to verbs that check nothing", async () => {
    const path = widgetPath();
    const asOwner = { tenant_id: tenantId, role: "owner" } as const;
    assert.deepEqual(await send(path, forwarded("PUT", path, owner.identity, asOwner, { name: "one" })), [
      200,
      undefined,
    ]);
    assert.deepEqual(await send(path, forwarded("GET", path, owner.identity, asOwner)), [200, undefined]);
    // Another tenant than the path's looks like a missing one.
    const other = { tenant_id: `tnt_${randomBytes(10).toString("hex")}`, role: "owner" } as const;
    assert.deepEqual(await send(path, forwarded("GET", path, owner.identity, other)), [404, "NOT_FOUND"]);
    assert.deepEqual(await send(path, forwarded("GET", path, owner.identity, undefined)), [404, "NOT_FOUND"]);
    // A member may read, not write; a read key likewise (its scope), a key of another tenant not at all.
    const asMember = { tenant_id: tenantId, role: "member" } as const;
    assert.deepEqual(await send(path, forwarded("GET", path, owner.identity, asMember)), [200, undefined]);
    assert.deepEqual(await send(path, forwarded("PUT", path, owner.identity, asMember, { name: "two" })), [
      403,
      "INSUFFICIENT_ROLE",
    ]);
    const readKey = await identity.apiKey(owner, tenantId, "read");
    assert.deepEqual(await send(path, forwarded("GET", path, readKey, asMember)), [200, undefined]);
    assert.deepEqual(await send(path, forwarded("PUT", path, readKey, asMember, { name: "two" })), [
      403,
      "INSUFFICIENT_SCOPE",
    ]);
  });

  it("re-checks the caller's credential on every write, before the tenant rule: a replay after sign-out is 401", async () => {
    const user = await identity.signUp();
    const tenant = (await identity.createTenant(user)).id;
    const path = widgetPath(tenant);
    const write = forwarded("PUT", path, user.identity, { tenant_id: tenant, role: "owner" }, { name: "before" });
    const belowRole = forwarded("PUT", path, user.identity, { tenant_id: tenant, role: "member" }, { name: "x" });
    assert.deepEqual(await send(path, write), [200, undefined]);
    assert.equal((await identity.call("POST", "/v1/auth/signout", { as: user.identity })).status, 204);
    // The same captured request, inside its assertion window: the session is gone, nothing is written.
    assert.deepEqual(await send(path, write), [401, "SESSION_REVOKED"]);
    // A dead credential is 401 whatever else is wrong, as at the gateway.
    assert.deepEqual(await send(path, belowRole), [401, "SESSION_REVOKED"]);
    // Reads need no live check: the gateway checked the session for this very read moments ago.
    const read = forwarded("GET", path, user.identity, { tenant_id: tenant, role: "owner" });
    const [status] = await send(path, read);
    assert.equal(status, 200);
    const rows = await db.orm.em.fork().execute<{ name: string }[]>(`SELECT name FROM "${db.schema}".widget`);
    assert.ok(!rows.some((r) => r.name === "x"));
  });
});
