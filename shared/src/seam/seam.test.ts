import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { internalConnectorRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Assertion, bodyless, IDENTITY_HEADER } from "../auth/identity-assertion.ts";
import { serviceSigner, testKeyring } from "../auth/keyring.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { databaseServiceApp } from "../http/database-service-app.ts";
import { mountRoute } from "../http/mount-route.ts";
import { createLogger } from "../log/logger.ts";
import { signedAs } from "../testing/signed-as.ts";
import { remoteCredentials } from "./credential-check.ts";
import type { SeamDeps, SeamEnv } from "./seam.ts";

/**
 * The seam on its own, with routes of the registry and handlers that do nothing but report what
 * the seam gave them: which requests reach a handler at all, and what the call context holds.
 * Every service's routes are covered by services/*: the table-driven test in
 * services/edge-gateway/test/service-seam.test.ts sends to each service directly.
 */
type Deps = SeamDeps;
type App = Hono<SeamEnv<Deps>>;

const secret = randomBytes(32).toString("base64url");
const tenant = "tnt_0123456789abcdefghij";
const user = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" } as const;
let db: TestDatabase;
let app: App;

beforeAll(async () => {
  db = await openTestDatabase({ prefix: "seam" });
  const deps = {
    orm: db.orm,
    schema: db.schema,
    logger: createLogger({ service: "seam-test", level: "silent" }),
    callerKeys: testKeyring("connector-svc", secret),
  };
  app = databaseServiceApp<SeamEnv<Deps>>(
    "connector-svc",
    deps,
    {},
    {
      bodyLimitBytes: 1024,
      seam: {
        service: "connector-svc",
        deps,
        // Nothing listens on port 9 (discard): identity-svc cannot be reached.
        credentials: remoteCredentials({
          identityUrl: "http://127.0.0.1:9",
          sign: serviceSigner(deps.callerKeys, "identity-svc"),
          timeoutMs: 500,
        }),
      },
      routes: [
        (a: App) =>
          mountRoute(a, routeIn(connectorRoutes, "marketplace.connector_role.template"), (_, c) => ({
            status: 200,
            body: { caller: c.get("call").caller.kind },
          })),
        (a: App) =>
          mountRoute(a, routeIn(internalConnectorRoutes, "internal.marketplace_connectors.list"), () => ({
            status: 200,
            body: { accounts: [] } as never,
          })),
        (a: App) =>
          mountRoute(a, routeIn(connectorRoutes, "marketplace.connector.get"), (_, c) => ({
            status: 200,
            body: {} as never,
            headers: { "x-trace": c.get("call").trace ?? "none", "x-role": c.get("call").tenant?.role ?? "" },
          })),
        (a: App) =>
          mountRoute(a, routeIn(connectorRoutes, "marketplace.connector.onboarding"), () => ({
            status: 200,
            body: {} as never,
          })),
        (a: App) =>
          mountRoute(a, routeIn(connectorRoutes, "marketplace.connector.disconnect"), async (_, c) => {
            await c.get("call").transaction(async () => undefined);
            return { status: 204 };
          }),
      ],
    },
  );
});
afterAll(() => db.close());

const signed = (method: string, path: string, assertion: Partial<Assertion>, headers: Record<string, string> = {}) =>
  app.request(path, {
    method,
    headers: {
      ...headers,
      [IDENTITY_HEADER]: signedAs(secret, "connector-svc", bodyless(method, path), { identity: user, ...assertion }),
    },
  });
const codeOf = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];
const MARKETPLACE = `/v1/tenants/${tenant}/integrations/marketplace`;

describe("the service seam", () => {
  it("answers 401 to an unsigned request on every path but the registry's public ones and the probes", async () => {
    for (const path of [MARKETPLACE, "/internal/v1/marketplace-connectors", "/v1/nothing-here", "/"]) {
      assert.deepEqual(await codeOf(await app.request(path)), [401, "UNAUTHENTICATED"], path);
    }
    const template = await app.request("/v1/marketplace/connector-role/template.json");
    assert.deepEqual(await template.json(), { caller: "anonymous" });
    assert.equal((await app.request("/healthz")).status, 200);
  });

  it("takes a user or key on /v1 only with the door it came through, and a service on /internal/v1 only", async () => {
    const t = { tenant: { tenant_id: tenant, role: "owner" as const } };
    assert.deepEqual(await codeOf(await signed("GET", MARKETPLACE, t)), [401, "UNAUTHENTICATED"]);
    assert.equal((await signed("GET", MARKETPLACE, { ...t, channel: "rest" })).status, 200);
    const asService = { identity: { kind: "service", service: "partner-inbound" } } as const;
    assert.deepEqual(await codeOf(await signed("GET", MARKETPLACE, { ...asService, channel: "rest" })), [
      401,
      "UNAUTHENTICATED",
    ]);
    assert.deepEqual(await codeOf(await signed("GET", "/internal/v1/marketplace-connectors", { channel: "rest" })), [
      401,
      "UNAUTHENTICATED",
    ]);
  });

  it("lets only the services in a route's `callers` call it (403 for another service)", async () => {
    const list = "/internal/v1/marketplace-connectors";
    const as = (service: "partner-inbound" | "offers-svc" | "notify-svc") =>
      ({ identity: { kind: "service", service } }) as const;
    assert.equal((await signed("GET", list, as("partner-inbound"))).status, 200);
    assert.equal((await signed("GET", list, as("offers-svc"))).status, 200);
    assert.deepEqual(await codeOf(await signed("GET", list, as("notify-svc"))), [403, "FORBIDDEN"]);
  });

  it("applies the route's tenant rule from the registry: another tenant looks missing, a low role is refused", async () => {
    const as = (tenant_id: string, role: "member" | "admin") =>
      ({ channel: "rest", tenant: { tenant_id, role } }) as const;
    assert.deepEqual(await codeOf(await signed("GET", MARKETPLACE, as("tnt_someoneelse0000000", "admin"))), [
      404,
      "NOT_FOUND",
    ]);
    assert.deepEqual(await codeOf(await signed("GET", `${MARKETPLACE}/onboarding`, as(tenant, "member"))), [
      403,
      "INSUFFICIENT_ROLE",
    ]);
    // A write checks the credential first, as the gateway authenticates before it authorizes.
    assert.deepEqual(await codeOf(await signed("DELETE", MARKETPLACE, as(tenant, "member"))), [
      503,
      "UPSTREAM_UNAVAILABLE",
    ]);
  });

  it("keeps a valid traceparent and drops any other before a handler sees it", async () => {
    const valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const t = { channel: "rest", tenant: { tenant_id: tenant, role: "member" } } as const;
    for (const [sent, seen] of [
      [valid, valid],
      ["00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "none"],
      ["ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "none"],
      ["00-00000000000000000000000000000000-b7ad6b7169203331-01", "none"],
      [`${valid}, ${valid}`, "none"],
      ["x".repeat(2000), "none"],
    ] as const) {
      const res = await signed("GET", MARKETPLACE, t, { traceparent: sent });
      assert.equal(res.headers.get("x-trace"), seen, sent.slice(0, 60));
    }
  });

  it("refuses a write with 503 when identity-svc cannot say whether the credential is live, never as live", async () => {
    const res = await signed("DELETE", MARKETPLACE, { channel: "rest", tenant: { tenant_id: tenant, role: "admin" } });
    assert.deepEqual(await codeOf(res), [503, "UPSTREAM_UNAVAILABLE"]);
  });
});
