import assert from "node:assert/strict";
import { sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { z } from "zod";
import { type Account, type Answer, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Every query parameter of every list route of the registry, fuzzed through the gateway to the real
 * service behind it (issue 24): a value the route's query schema refuses is 400 VALIDATION_FAILED
 * naming the field, a cursor the list did not give out (random text, or a forged base64url JSON
 * such as `["1","1"]`, which once reached PostgreSQL's cast and answered 500) is 400 INVALID_CURSOR,
 * and nothing is ever a 5xx.
 */
const RUNS = 25;

const listRoutes = routes.filter((r) => r.method === "GET" && r.query && r.id.endsWith(".list"));
const keysOf = (route: RouteSpec) => Object.keys((route.query as z.ZodObject).shape);

/** Lists whose cursor is AWS's own page token, passed through: AWS (the sandbox) judges it, not our codec. */
const awsToken = new Set(["offers.list", "agreements.list"]);

/** Text a client could put in a query value: anything printable or not, and the edges PostgreSQL trips on. */
const anyValue = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "-1",
    "0",
    "1e400",
    "NaN",
    "9".repeat(40),
    "'; DROP TABLE x;--",
    "0000-01-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2026-11-01T00:00:00+23:59",
    "294277-01-01T00:00:00Z",
    "a".repeat(3000),
  ),
);

/** Positions no list gives out: the right arity with wrong types or values PostgreSQL refuses, or not a position. */
const neverPositions: unknown[] = [
  ["1", "1"],
  ["2026-11-01", "1; DROP TABLE audit_event"],
  ["0000-01-01T00:00:00Z", "1"],
  ["2026-11-01T00:00:00Z", "a\u0000b"],
  ["2026-11-01T00:00:00+23:59", "1"],
  ["2026-11-01T00:00:00Z", "1", "extra"],
  { at: "2026-11-01T00:00:00Z" },
  "",
  "\u0000",
];
/** base64url JSON a forger would try: anything, or a timestamp and a key (which may be a real position). */
const forgedPosition = fc.oneof(
  fc.constantFrom(...neverPositions),
  fc.tuple(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 })),
  fc.tuple(
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.string({ unit: "binary", maxLength: 30 }),
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function assertProblem(res: Answer, status: number, code: string, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.equal(res.headers.get("content-type"), "application/problem+json", what);
  assert.equal(res.json.code, code, `${what}: ${res.text.slice(0, 300)}`);
}

describe("malformed query parameters on every list route", () => {
  let e2e: E2E;
  let owner: Account;
  let tenantId: string;
  /** A notification endpoint of the tenant, for its delivery log (notify-svc allows loopback http in tests). */
  let endpointId: string;
  const get = (route: RouteSpec, query: string) =>
    e2e.call(
      "GET",
      // An offer's history answers any offer id of the right shape (an empty list for an unknown one).
      `${route.path.replace("{id}", tenantId).replace("{offer_id}", "offer-0123456789abc").replace("{endpoint_id}", endpointId)}?${query}`,
      { token: owner.token },
    );

  beforeAll(async () => {
    e2e = await startE2E("gw_query", {}, undefined, { connector: true, offers: true });
    owner = await e2e.signUp();
    tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Query fuzz" } })).json.id;
    // The marketplace lists answer 403 FEATURE_DISABLED, then 409 not connected, before reading a query.
    await e2e.call("PUT", `/v1/tenants/${tenantId}/features`, {
      token: owner.token,
      body: { marketplace_offers: true },
    });
    endpointId = (
      await e2e.call("POST", `/v1/tenants/${tenantId}/notifications/endpoints`, {
        token: owner.token,
        body: { url: "http://127.0.0.1:9/hook" },
      })
    ).json.id;
    const seller = await sellerAccount({ call: e2e.call, sandbox: e2e.sandbox! }, {}, { tenantId, token: owner.token });
    const connect = await e2e.call("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, {
      token: owner.token,
      body: { role_arn: seller.roleArn },
    });
    assert.equal(connect.status, 200, connect.text);
  });
  afterAll(() => e2e?.close());

  it("covers every list route of the registry", () => {
    assert.deepEqual(listRoutes.map((r) => r.id).sort(), [
      "agreements.list",
      "audit_events.list",
      "marketplace.products.list",
      "notifications.deliveries.list",
      "offers.changes.list",
      "offers.list",
      "partner.engagements.list",
      "partner.opportunities.list",
      "users.me.audit_events.list",
    ]);
  });

  for (const route of listRoutes) {
    it(`${route.id}: each query parameter, fuzzed, is a 200 when its schema takes it and a 400 naming it when not`, async () => {
      for (const key of keysOf(route)) {
        await fc.assert(
          fc.asyncProperty(anyValue, async (value) => {
            const res = await get(route, `${key}=${encodeURIComponent(value)}`);
            const what = `${route.id} ${key}=${JSON.stringify(value).slice(0, 80)}`;
            if (!route.query!.safeParse({ [key]: value }).success) {
              assertProblem(res, 400, "VALIDATION_FAILED", what);
              assert.ok(
                res.json.errors.some((e: { path: string }) => e.path === key),
                `${what}: ${res.text.slice(0, 300)}`,
              );
            } else if (key === "cursor") {
              // Text that passes the cursor's format is still not a position this list gave out.
              assert.equal(res.status, 400, `${what}: ${res.text.slice(0, 300)}`);
              if (!awsToken.has(route.id)) assertProblem(res, 400, "INVALID_CURSOR", what);
            } else {
              assert.equal(res.status, 200, `${what}: ${res.text.slice(0, 300)}`);
            }
          }),
          { numRuns: RUNS },
        );
      }
    });
  }

  for (const route of listRoutes.filter((r) => keysOf(r).includes("cursor"))) {
    it(`${route.id}: a forged cursor is 400 when it names no position, and never a 5xx`, async () => {
      const answer = async (position: unknown) => {
        const cursor = base64url(position);
        const res = await get(route, `cursor=${cursor}`);
        const what = `${route.id} cursor=${JSON.stringify(position).slice(0, 80)}`;
        if (!route.query!.safeParse({ cursor }).success) assertProblem(res, 400, "VALIDATION_FAILED", what);
        return { res, what };
      };
      for (const position of neverPositions) {
        const { res, what } = await answer(position);
        assert.equal(res.status, 400, `${what}: ${res.text.slice(0, 300)}`);
        if (!awsToken.has(route.id)) assertProblem(res, 400, "INVALID_CURSOR", what);
      }
      // A forger can also hit a well-formed position (a timestamp and a key): that is a page, possibly empty.
      await fc.assert(
        fc.asyncProperty(forgedPosition, async (position) => {
          const { res, what } = await answer(position);
          assert.ok([200, 400].includes(res.status), `${what}: ${res.status} ${res.text.slice(0, 300)}`);
          if (res.status === 400 && !awsToken.has(route.id)) {
            assert.ok(["INVALID_CURSOR", "VALIDATION_FAILED"].includes(res.json.code), `${what}: ${res.text}`);
          }
        }),
        { numRuns: RUNS * 2 },
      );
    });
  }
});
