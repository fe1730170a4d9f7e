import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { keyPairs, keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import { type InternalRouteShape, internalRoutes } from "@flowstate/contracts/internal/routes";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type Assertion,
  bodyless,
  encodePayload,
  IDENTITY_HEADER,
  type RequestBinding,
  sha256Base64url,
} from "../auth/identity-assertion.ts";
import { signKeyedPayload } from "../auth/keyed-assertion.ts";
import { gatewaySign, keyringVerifier, serviceSigner, testKeyring } from "../auth/keyring.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { DomainError } from "../errors/domain-error.ts";
import { databaseServiceApp } from "../http/database-service-app.ts";
import { mountRoute } from "../http/mount-route.ts";
import { createLogger } from "../log/logger.ts";
import type { SeamDeps, SeamEnv } from "./seam.ts";
import { callerVerifier } from "./verify-caller.ts";

/**
 * Issue 21's acceptance for keys per caller (ADR 0014), through the seam as every service builds
 * it (its keyring, no shared key): with partner-inbound's one key, every internal route but its
 * own is refused with 403, and no user can be impersonated at any service.
 */
type Deps = SeamDeps;
type App = Hono<SeamEnv<Deps>>;

const master = randomBytes(32).toString("base64url");
const user = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" } as const;
const tenant = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;
const owners = [...new Set(internalRoutes.map((r) => r.service))] as FlowstateServiceName[];
const apps = new Map<string, App>();
let db: TestDatabase;

/** A concrete path of a route template, with ids of the right shape. */
const concrete = (r: InternalRouteShape) =>
  r.path
    .replace("{id}", tenant.tenant_id)
    .replace("{sid}", user.sid)
    .replace("{sub}", user.sub)
    .replace("{instance}", "door_0123456789ab")
    .replace("{category}", "profile");

beforeAll(async () => {
  db = await openTestDatabase({ prefix: "keys" });
  for (const service of owners) {
    const deps = {
      orm: db.orm,
      schema: db.schema,
      logger: createLogger({ service: "keys-test", level: "silent" }),
      callerKeys: testKeyring(service, master),
    };
    const app = databaseServiceApp<SeamEnv<Deps>>(
      service,
      deps,
      {},
      {
        bodyLimitBytes: 4096,
        seam: { service, deps },
        routes: internalRoutes
          .filter((r) => r.service === service)
          .map((r) => (a: App) => mountRoute(a, r as never, () => ({ status: 299, body: {} }) as never)),
      },
    );
    apps.set(service, app);
  }
});
afterAll(() => db.close());

/** The one key a stolen partner-inbound holds, used any way an attacker likes. */
const stolen = testKeyring("partner-inbound", master);
const stolenKey = stolen.pair("partner-inbound--connector-svc")!.current.key;
const forge = (kid: string, binding: RequestBinding, assertion: Assertion) =>
  signKeyedPayload(stolenKey, kid, binding, encodePayload(assertion));

const call = (r: InternalRouteShape, header: (b: RequestBinding) => string) => {
  const path = concrete(r);
  const body = r.method === "GET" || r.method === "DELETE" ? undefined : "{}";
  const binding = body
    ? { method: r.method, target: path, bodySha256: sha256Base64url(body) }
    : bodyless(r.method, path);
  return apps.get(r.service)!.request(path, {
    method: r.method,
    body,
    headers: { "content-type": "application/json", [IDENTITY_HEADER]: header(binding) },
  });
};

describe("keys per caller: partner-inbound's key", () => {
  it("is the only key partner-inbound holds", () => {
    assert.deepEqual(stolen.ids(), ["partner-inbound--connector-svc"]);
  });

  it("reaches its own route and is refused with 403 on every other internal route", async () => {
    const own = serviceSigner(stolen, "connector-svc");
    for (const r of internalRoutes) {
      const res = await call(r, (b) => own(b));
      const expected = r.id === "internal.marketplace_connectors.list" ? 299 : 403;
      assert.equal(res.status, expected, r.id);
    }
  });

  it("is refused on every internal route when it claims to be one of the route's callers", async () => {
    for (const r of internalRoutes.filter((x) => x.id !== "internal.marketplace_connectors.list")) {
      for (const caller of r.callers) {
        const res = await call(r, (b) => forge(caller, b, { identity: { kind: "service", service: caller as never } }));
        // A caller that holds a key here: the stolen key is not its key (401); any other: 403.
        const holds = keyPairsOf(r.service).some((p) => p.signer === caller);
        assert.equal(res.status, holds ? 401 : 403, `${r.id} as ${caller}`);
      }
    }
  });

  it("impersonates no user at any service, signing as itself or as the gateway", () => {
    const binding = bodyless("GET", `/v1/tenants/${tenant.tenant_id}`);
    const verifiers = [...new Set(keyPairs.map((p) => p.verifier))];
    for (const service of verifiers) {
      const verify = keyringVerifier(testKeyring(service, master));
      const asItself = forge("partner-inbound", binding, { identity: user, tenant, channel: "rest" });
      assert.throws(
        () => verify(binding, asItself),
        (e: unknown) => e instanceof DomainError && e.code === "FORBIDDEN",
        service,
      );
      // Not genuine (null) where the gateway holds a key; 403 at a door, which holds none from it.
      const asGateway = forge("gateway", binding, { identity: user, tenant, channel: "rest" });
      let verified: unknown = "refused";
      try {
        verified = verify(binding, asGateway);
      } catch (e) {
        assert.ok(e instanceof DomainError && e.code === "FORBIDDEN", service);
      }
      assert.ok(verified === null || verified === "refused", service);
    }
  });
});

describe("keys per caller: no shared key", () => {
  it("refuses the one-key v3 assertion at every service, whatever key signed it", async () => {
    // The format every process used to sign with the shared key (ADR 0002), written out here
    // because nothing in the platform produces it any more.
    const v3 = (key: string, b: RequestBinding, assertion: Assertion) => {
      const issued = String(Date.now());
      const payload = encodePayload(assertion);
      const mac = createHmac("sha256", key)
        .update(`v3\n${issued}\n${b.method}\n${b.target}\n${b.bodySha256}\n${payload}`)
        .digest("base64url");
      return `v3.${issued}.${payload}.${mac}`;
    };
    for (const r of internalRoutes) {
      const caller = r.callers[0]!;
      const res = await call(r, (b) => v3(master, b, { identity: { kind: "service", service: caller as never } }));
      assert.equal(res.status, 401, r.id);
      // The same call signed as the caller's keyring signs it gets past the signature check (then
      // the route's own validation may refuse this test's made-up path or body).
      const genuine = await call(r, (b) => serviceSigner(testKeyring(caller, master), r.service as never)(b));
      assert.ok(![401, 403].includes(genuine.status), `${r.id}: ${genuine.status}`);
    }
    const binding = bodyless("GET", `/v1/tenants/${tenant.tenant_id}`);
    const header = v3(master, binding, { identity: user, tenant, channel: "rest" });
    for (const service of new Set(keyPairs.map((p) => p.verifier))) {
      assert.equal(callerVerifier(testKeyring(service, master))(binding, header), null, service);
    }
  });

  it("gives identity-svc one push key per door, which only that door holds", () => {
    const pushPairs = keyPairs.filter((p) => p.signer === "identity-svc").map((p) => p.id);
    assert.deepEqual(pushPairs, ["identity-svc--edge-gateway", "identity-svc--mcp-gateway"]);
    assert.deepEqual(
      testKeyring("edge-gateway", master)
        .ids()
        .filter((id) => id.startsWith("identity-svc--")),
      ["identity-svc--edge-gateway"],
    );
  });
});

describe("keys per caller: what each key may say", () => {
  it("a gateway key signs users and keys, never a service; a service key only that service", () => {
    const edge = testKeyring("edge-gateway", master);
    const binding = bodyless("GET", "/internal/v1/marketplace-connectors");
    assert.throws(() =>
      gatewaySign(edge, "connector-svc", binding, { identity: { kind: "service", service: "partner-inbound" } }),
    );
    const verify = keyringVerifier(testKeyring("connector-svc", master));
    const key = edge.pair("gateway--connector-svc")!.current.key;
    const forged = signKeyedPayload(
      key,
      "gateway",
      binding,
      encodePayload({ identity: { kind: "service", service: "partner-inbound" } }),
    );
    assert.throws(
      () => verify(binding, forged),
      (e: unknown) => e instanceof DomainError && e.code === "FORBIDDEN",
    );
    const genuine = gatewaySign(edge, "connector-svc", binding, { identity: user, tenant, channel: "rest" });
    assert.deepEqual(verify(binding, genuine)?.assertion.identity, user);
  });

  it("gives every process only the pairs it signs or verifies, and the gateway pairs to the doors only", () => {
    for (const p of keyPairs) {
      const holders = owners.concat([
        "edge-gateway",
        "mcp-gateway",
        "offers-svc",
        "partner-inbound",
        "privacy-svc",
        "audit-svc",
        "partner-svc",
      ] as never[]);
      for (const h of new Set(holders)) {
        const holds = keyPairsOf(h).some((x) => x.id === p.id);
        const door = h === "edge-gateway" || h === "mcp-gateway";
        const should = p.verifier === h || p.signer === h || (door && p.signer === "gateway");
        assert.equal(holds, should, `${h} ${p.id}`);
      }
    }
  });
});
