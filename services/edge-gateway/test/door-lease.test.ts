import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { INVALIDATIONS_PUSH_PATH } from "@flowstate/contracts/internal/doors";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import { encodePayload, IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { signKeyedPayload } from "@flowstate/shared/auth/keyed-assertion";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serveMetrics } from "@flowstate/shared/http/metrics-server";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { afterAll, beforeAll, describe, it } from "vitest";
import { freePort } from "../../../deploy/local/ports.ts";
import { createApp, type Gateway, type GatewaySettings } from "../src/app.ts";
import { OWN_ANSWER_HEADERS } from "../src/http/security-headers.ts";
import { mountInvalidationPush } from "../src/lease/push-route.ts";
import { AUDIENCE, type E2E, ISSUER, startE2E } from "./e2e-stack.ts";
import { testSettings, unlimitedRates } from "./gateway-harness.ts";

/**
 * ADR 0011 in process: identity-svc (the harness, served over HTTP) with short leases, the e2e
 * stack's gateway (no lease: the instance revoking calls go through) and further gateway instances
 * with a lease and their push route on an internal listener, as main.ts runs them. The five
 * revocation kinds across real processes are in revocation-every-instance.e2e.test.ts.
 */
const LEASE_MS = 2_000;
const PUSH_TIMEOUT_MS = 300;

let e2e: E2E;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  e2e = await startE2E("gw_lease", {}, undefined, {
    identity: { doorPush: { leaseMs: LEASE_MS, pushTimeoutMs: PUSH_TIMEOUT_MS } },
  });
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await e2e?.close();
});

interface LeasedDoor {
  url: string;
  pushUrl: string;
  instanceId: string;
  gateway: Gateway;
}

/** Another gateway instance with its lease (started unless `start` is false) and push route. */
async function leasedDoor(
  start = true,
  options: { routes?: readonly RouteSpec[]; settings?: Partial<GatewaySettings> } = {},
): Promise<LeasedDoor> {
  const logger = createLogger({ service: "edge-gateway" });
  const pushPort = await freePort();
  const instanceId = `edge-gateway-${randomBytes(8).toString("hex")}`;
  const pushUrl = `http://127.0.0.1:${pushPort}`;
  const keyring = testKeyring("edge-gateway", e2e.identity.secret);
  const gateway = createApp({
    config: testSettings(e2e.identityUrl, {
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      ...unlimitedRates,
      ...options.settings,
    }),
    ...(options.routes ? { routes: options.routes } : {}),
    logger,
    callerKeys: keyring,
    lease: { instanceId, pushUrl, renewMs: 200 },
  });
  const internal = await serveMetrics(createMetrics(), {
    host: "127.0.0.1",
    port: pushPort,
    logger,
    routes: (app) => mountInvalidationPush(app, { keyring, invalidate: gateway.invalidate }),
  });
  const server = await serve(gateway, {
    host: "127.0.0.1",
    port: 0,
    logger,
    handleSignals: false,
    drainTimeoutMs: 1_000,
    headers: OWN_ANSWER_HEADERS,
  });
  closing.push(
    () => server.shutdown("test done"),
    () => gateway.close(),
    () => internal.shutdown("test done"),
  );
  if (start) await gateway.lease!.start();
  return { url: server.url, pushUrl, instanceId, gateway };
}

const me = async (door: { url: string }, token: string) =>
  (await fetch(`${door.url}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } })).status;

const signOut = async (token: string) => {
  const res = await e2e.call("POST", "/v1/auth/signout", { token });
  assert.equal(res.status, 204, res.text);
};

const leaseRow = async (instanceId: string) =>
  (
    await e2e.identity.deps.orm.em
      .getConnection()
      .execute(`SELECT instance_id FROM "${e2e.identity.deps.schema}".door_lease WHERE instance_id = ?`, [instanceId])
  ).length;

describe("door leases (ADR 0011)", () => {
  it("a sign-out through another instance is refused at a leased instance with a warm cache, before the sign-out answers", async () => {
    const door = await leasedDoor();
    assert.ok(door.gateway.lease!.valid());
    for (let i = 0; i < 5; i++) {
      const user = await e2e.signUp();
      assert.equal(await me(door, user.token), 200);
      assert.equal(await me(door, user.token), 200, "served from the cache");
      await signOut(user.token);
      assert.equal(await me(door, user.token), 401, `round ${i}`);
    }
  });

  it("a flag change through another instance is in force at a leased instance with a warm flag cache, before the change answers", async () => {
    // GET /v1/tenants/{id} declares the feature here (as in feature-flag.test.ts), and the flags stay
    // cached for a minute: only the push explains a change seen at once. The doors consume no
    // FeatureFlagChanged (ADR 0011, amendment of issue 26).
    const gated = routes.map((r) => (r.id === "tenants.get" ? { ...r, feature: "marketplace_offers" as const } : r));
    const door = await leasedDoor(true, { routes: gated, settings: { FEATURE_CACHE_TTL_MS: 60_000 } });
    const owner = await e2e.signUp();
    const tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Flags" } })).json
      .id as string;
    const read = async () =>
      (await fetch(`${door.url}/v1/tenants/${tenantId}`, { headers: { authorization: `Bearer ${owner.token}` } }))
        .status;
    assert.equal(await read(), 403, "off by default");
    for (const [on, status] of [
      [true, 200],
      [false, 403],
      [true, 200],
    ] as const) {
      const change = await e2e.call("PUT", `/v1/tenants/${tenantId}/features`, {
        token: owner.token,
        body: { marketplace_offers: on },
      });
      assert.equal(change.status, 200, change.text);
      assert.equal(await read(), status, `marketplace_offers ${on}`);
      assert.equal(await read(), status, `marketplace_offers ${on}, from the cache`);
    }
  });

  it("trusts nothing cached while its lease is not valid (never started, so never pushed to)", async () => {
    const door = await leasedDoor(false);
    assert.equal(door.gateway.lease!.valid(), false);
    const user = await e2e.signUp();
    assert.equal(await me(door, user.token), 200);
    await signOut(user.token);
    assert.equal(await me(door, user.token), 401);
  });

  it("drops every cached fact when identity-svc registers it afresh (it was evicted, so pushes missed it)", async () => {
    const door = await leasedDoor();
    const user = await e2e.signUp();
    assert.equal(await me(door, user.token), 200);
    // As an eviction does (identity-svc then waits out the lease; here nothing waits): the row goes,
    // the sign-out is pushed to no one, and the cache holds a revoked session until the next renewal.
    await e2e.identity.deps.doors.leases.evict(door.instanceId);
    await signOut(user.token);
    const renewals = door.gateway.lease!.stats.renewals;
    const deadline = Date.now() + 5_000;
    while (door.gateway.lease!.stats.renewals === renewals && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(door.gateway.lease!.stats.renewals > renewals, "renewed");
    assert.equal(await me(door, user.token), 401);
  });

  it("evicts an instance that does not ack a push, and answers the revoking call only after its lease ran out", async () => {
    // A door that accepts connections and never answers (stalled, or its process frozen).
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    closing.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const address = silent.address() as { port: number };
    const instanceId = `edge-gateway-${randomBytes(8).toString("hex")}`;
    // Signed up first: a sign-up (Argon2) on a loaded machine can outlast the lease, and a lease that
    // ran out before the sign-out is rightly not pushed to at all.
    const user = await e2e.signUp();
    // Before the request: the row's lease ends at least LEASE_MS after this.
    const registering = performance.now();
    const renewed = await e2e.identity.call("PUT", `/internal/v1/doors/${instanceId}`, {
      as: { kind: "service", service: "edge-gateway" },
      body: { push_url: `http://127.0.0.1:${address.port}` },
    });
    assert.equal(renewed.status, 200);
    assert.deepEqual(await renewed.json(), { lease_ms: LEASE_MS, registered: true });
    const started = performance.now();
    await signOut(user.token);
    const answeredAt = performance.now();
    assert.ok(answeredAt - started >= PUSH_TIMEOUT_MS, `answered after ${answeredAt - started} ms`);
    assert.ok(answeredAt - registering >= LEASE_MS, "not before the silent door's lease ran out");
    assert.equal(await leaseRow(instanceId), 0, "evicted");
  });

  it("refuses a push not signed with identity-svc's key for this door (401, 403) and acks a genuine one (204)", async () => {
    const door = await leasedDoor();
    const user = await e2e.signUp();
    assert.equal(await me(door, user.token), 200);
    const body = JSON.stringify([{ scope: "account", sub: user.sub }]);
    const push = (headers: Record<string, string>) =>
      fetch(`${door.pushUrl}${INVALIDATIONS_PUSH_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    assert.equal((await push({})).status, 401);
    const binding = { method: "POST", target: INVALIDATIONS_PUSH_PATH, bodySha256: sha256Base64url(body) };
    const identityKeys = testKeyring("identity-svc", e2e.identity.secret);
    // The door's own key (it holds no pair with itself): refused as a signer that may not push.
    const asGateway = serviceSigner(testKeyring("edge-gateway", e2e.identity.secret), "identity-svc")(binding);
    assert.equal((await push({ [IDENTITY_HEADER]: asGateway })).status, 403);
    // identity-svc's push key for the other door: not this door's key, so not genuine here.
    const otherDoor = identityKeys.pair("identity-svc--mcp-gateway")!.current.key;
    const identity = encodePayload({ identity: { kind: "service", service: "identity-svc" } });
    const misdirected = signKeyedPayload(otherDoor, "identity-svc", binding, identity);
    assert.equal((await push({ [IDENTITY_HEADER]: misdirected })).status, 401);
    const asIdentity = serviceSigner(identityKeys, "edge-gateway")(binding);
    assert.equal((await push({ [IDENTITY_HEADER]: asIdentity })).status, 204);
  });

  it("refuses a lease to anything but the door the instance belongs to, and deregisters at shutdown", async () => {
    const instanceId = `edge-gateway-${randomBytes(8).toString("hex")}`;
    const asPrivacy = await e2e.identity.call("PUT", `/internal/v1/doors/${instanceId}`, {
      as: { kind: "service", service: "privacy-svc" },
      body: { push_url: "http://127.0.0.1:1" },
    });
    assert.equal(asPrivacy.status, 403);
    // identity-svc pushes to an instance with the key of the door its id names: a door leases its own only.
    const otherDoors = await e2e.identity.call("PUT", `/internal/v1/doors/${instanceId}`, {
      as: { kind: "service", service: "mcp-gateway" },
      body: { push_url: "http://127.0.0.1:1" },
    });
    assert.equal(otherDoors.status, 403);
    const door = await leasedDoor();
    assert.equal(await leaseRow(door.instanceId), 1);
    await door.gateway.lease!.stop();
    assert.equal(await leaseRow(door.instanceId), 0);
    assert.equal(door.gateway.lease!.valid(), false);
  });
});
