import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { type SellerAccount, sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import { atLeast } from "@flowstate/contracts/auth/tenant-access";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import { oauthDriver } from "@flowstate/identity-svc/oauth/testing/oauth-driver";
import { disableAccount } from "@flowstate/identity-svc/verbs/disable-account";
import { grantAgreementReads } from "@flowstate/seller-sandbox/testing/agreement-reads";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, AUDIENCE, type E2E, ISSUER, startE2E } from "./e2e-stack.ts";
import { randomId, testSigningKey } from "./keys.ts";

/**
 * Every tenant route of the registry × every kind of caller, through the gateway to the real
 * identity-svc. Each cell has one expected status; refusals must be problem+json that carry
 * nothing of the tenant, and "someone else's tenant" must read exactly like a missing one.
 * Every refusal must come from the gateway itself (the call never reaches identity-svc's public
 * routes), although identity-svc re-checks access as a second line.
 * A tenant route without an entry in `cases` fails the suite: a new route cannot ship untested.
 */

type Caller =
  | "anonymous"
  | "malformed token"
  | "expired token"
  | "unknown signing key"
  | "wrong audience"
  | "MCP-audience token"
  | "disabled account"
  | "revoked API key"
  | "another tenant's member"
  | "another tenant's API key"
  | "member"
  | "admin"
  | "owner"
  | "read API key"
  | "write API key";

interface World {
  e2e: E2E;
  tenantId: string;
  owner: Account;
  admin: Account;
  member: Account;
  /** A second plain member, the target of role changes. */
  target: Account;
  liveKeyId: string;
  credentials: Record<Caller, string | undefined>;
  /** The tenant's seller account (CloudFormation stack deployed, connected), when connector-svc runs. */
  seller?: SellerAccount;
  /** What the offers routes act on, when offers-svc runs (see `offerTargets`). */
  offers?: OfferTargets;
}

/**
 * Offers of the tenant's seller account, a different one for each caller that may change it: a
 * change set locks its offer until it ends (AWS's ResourceInUseException, 409), so two allowed
 * callers releasing one offer back to back would race. The seed's five plus one created here.
 */
interface OfferTargets {
  productId: string;
  changeSetId: string;
  release: Partial<Record<Caller, string>>;
  expire: Partial<Record<Caller, string>>;
  /** Drafts to change (offers.update), one per caller that may. */
  update: Partial<Record<Caller, string>>;
  readable: string;
}

/** How to call a route so that it succeeds for an allowed caller: path, body, and fresh targets where the call destroys something. */
type Case = (w: World, caller: Caller, allowed: boolean) => Promise<{ path: string; body?: unknown }>;

const T = (w: World) => `/v1/tenants/${w.tenantId}`;
const freshTenant = async (w: World) => {
  const res = await w.e2e.call("POST", "/v1/tenants", {
    token: w.owner.token,
    body: { name: `Fresh ${randomUUID().slice(0, 6)}` },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.id as string;
};
const freshKey = async (w: World) => {
  const res = await w.e2e.call("POST", `${T(w)}/api-keys`, {
    token: w.owner.token,
    body: { name: "fresh", scope: "read" },
  });
  assert.equal(res.status, 201, res.text);
  recordSecret(res.json.secret as string);
  return res.json.key_id as string;
};
const freshMember = async (w: World) => {
  const user = await w.e2e.signUp();
  await w.e2e.addMember(w.owner, w.tenantId, user, "member");
  return user;
};

/** A notification endpoint registered by the owner (notify-svc's test harness allows loopback http). */
const newEndpoint = async (w: World) => {
  const res = await w.e2e.call("POST", `${T(w)}/notifications/endpoints`, {
    token: w.owner.token,
    body: { url: "http://127.0.0.1:9/matrix" },
  });
  assert.equal(res.status, 201, res.text);
  recordSecret(res.json.secret as string);
  return res.json.id as string;
};
const endpoints = new WeakMap<World, Promise<string>>();
const endpointOf = (w: World) => {
  if (!endpoints.has(w)) endpoints.set(w, newEndpoint(w));
  return endpoints.get(w)!;
};

const M = (w: World) => `${T(w)}/integrations/marketplace`;
/** After an allowed disconnect, the tenant re-onboards (its new external ID into the stack) and connects again. */
const ensureConnected = async (w: World) => {
  const status = await w.e2e.call("GET", M(w), { token: w.owner.token });
  assert.equal(status.status, 200, status.text);
  if (status.json.connected) return;
  await w.seller!.trust(status.json.external_id);
  const res = await w.e2e.call("POST", M(w), { token: w.owner.token, body: { role_arn: w.seller!.roleArn } });
  assert.equal(res.status, 200, res.text);
};
const connected =
  (suffix: string): Case =>
  async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}${suffix}` };
  };

const cases: Record<string, Case> = {
  "partner.opportunities.list": async (w) => ({ path: `${T(w)}/partner/opportunities` }),
  "partner.engagements.list": async (w) => ({ path: `${T(w)}/partner/engagements?limit=10` }),
  "audit_events.list": async (w) => ({ path: `${T(w)}/audit-events?limit=5&type=MembershipAdded` }),
  "tenants.get": async (w) => ({ path: T(w) }),
  "tenants.rename": async (w) => ({ path: T(w), body: { name: "Renamed" } }),
  "tenants.delete": async (w, caller, allowed) => ({
    path: allowed && caller === "owner" ? `/v1/tenants/${await freshTenant(w)}` : T(w),
  }),
  "tenants.ownership_transfer": async (w, caller, allowed) => {
    if (!(allowed && caller === "owner"))
      return { path: `${T(w)}/ownership-transfer`, body: { new_owner_sub: w.member.sub } };
    const id = await freshTenant(w);
    await w.e2e.addMember(w.owner, id, w.member, "member");
    return { path: `/v1/tenants/${id}/ownership-transfer`, body: { new_owner_sub: w.member.sub } };
  },
  "members.list": async (w) => ({ path: `${T(w)}/members` }),
  "members.add": async (w, _caller, allowed) => ({
    path: `${T(w)}/members`,
    body: { email: allowed ? (await w.e2e.signUp()).email : w.target.email, role: "member" },
  }),
  "members.update": async (w) => ({ path: `${T(w)}/members/${w.target.sub}`, body: { role: "member" } }),
  "members.remove": async (w, _caller, allowed) => ({
    path: `${T(w)}/members/${allowed ? (await freshMember(w)).sub : w.target.sub}`,
  }),
  "features.get": async (w) => ({ path: `${T(w)}/features` }),
  "features.update": async (w) => ({ path: `${T(w)}/features`, body: { marketplace_offers: true } }),
  "api_keys.list": async (w) => ({ path: `${T(w)}/api-keys` }),
  "api_keys.create": async (w) => ({ path: `${T(w)}/api-keys`, body: { name: "matrix", scope: "read" } }),
  "api_keys.revoke": async (w, _caller, allowed) => ({
    path: `${T(w)}/api-keys/${allowed ? await freshKey(w) : w.liveKeyId}`,
  }),
  "marketplace.connector.get": async (w) => ({ path: M(w) }),
  "marketplace.connector.connect": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: M(w), body: { role_arn: w.seller!.roleArn } };
  },
  "marketplace.connector.disconnect": async (w) => ({ path: M(w) }),
  "marketplace.connector.onboarding": async (w) => ({ path: `${M(w)}/onboarding` }),
  "marketplace.connector.health": connected("/health"),
  "marketplace.products.list": connected("/products"),
  "offers.list": connected("/offers"),
  "offers.get": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.readable}` };
  },
  "offers.create": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers`, body: offerBody(w.offers!.productId) };
  },
  "offers.clone": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.readable}/clone`, body: { buyer_accounts: ["777788889999"] } };
  },
  "offers.update": async (w, caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.update[caller] ?? w.offers!.readable}`, body: { name: "Renamed" } };
  },
  "offers.changes.list": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.readable}/changes` };
  },
  "offers.release": async (w, caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.release[caller] ?? w.offers!.readable}/release` };
  },
  "offers.expire": async (w, caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/offers/${w.offers!.expire[caller] ?? w.offers!.readable}/expire` };
  },
  "offers.changes.get": async (w, _caller, allowed) => {
    if (allowed) await ensureConnected(w);
    return { path: `${M(w)}/changes/${w.offers!.changeSetId}` };
  },
  "agreements.list": connected("/agreements"),
  "agreements.replacement_offers.create": async (w, _caller, allowed) => {
    // The seller added the agreement reads a replacement offer needs (the interface's policy lacks them).
    if (allowed) {
      await ensureConnected(w);
      await grantAgreementReads(w.seller!.control.split("/_sandbox/")[0]!, w.seller!.roleArn);
    }
    const account = (await (await fetch(w.seller!.control)).json()) as { agreements: { id: string; status: string }[] };
    const { product_id: _p, buyer_accounts: _b, ...body } = offerBody(w.offers!.productId);
    const agreement = account.agreements.find((a) => a.status === "ACTIVE")!.id;
    return { path: `${M(w)}/agreements/${agreement}/replacement-offers`, body };
  },
  "notifications.endpoints.list": async (w) => ({ path: `${T(w)}/notifications/endpoints` }),
  "notifications.endpoints.create": async (w) => ({
    path: `${T(w)}/notifications/endpoints`,
    body: { url: "http://127.0.0.1:9/matrix" },
  }),
  "notifications.endpoints.delete": async (w, _caller, allowed) => ({
    path: `${T(w)}/notifications/endpoints/${allowed ? await newEndpoint(w) : await endpointOf(w)}`,
  }),
  "notifications.endpoints.enable": async (w) => ({
    path: `${T(w)}/notifications/endpoints/${await endpointOf(w)}/enable`,
  }),
  "notifications.endpoints.rotate_secret": async (w) => ({
    path: `${T(w)}/notifications/endpoints/${await endpointOf(w)}/rotate-secret`,
  }),
  "notifications.deliveries.list": async (w) => ({
    path: `${T(w)}/notifications/endpoints/${await endpointOf(w)}/deliveries?limit=5`,
  }),
  "notifications.deliveries.replay": async (w) => {
    const endpoint = await endpointOf(w);
    const delivery = await w.e2e.notify.seedDelivery(w.tenantId, endpoint);
    return { path: `${T(w)}/notifications/endpoints/${endpoint}/deliveries/${delivery}/replay` };
  },
  "seller.currencies.get": connected("/seller/currencies"),
};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const offerBody = (productId: string) => ({
  product_id: productId,
  name: "Matrix offer",
  description: "An offer the authorization matrix creates",
  buyer_accounts: ["444455556666"],
  pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "BasicService" }] },
  legal_terms: { eula: { type: "standard" } },
  validity: { duration: "P12M" },
  availability_end_date: day(30),
});

/** One offer created through the gateway (a change set to read) and the seed's offers, shared out. */
async function offerTargets(e2e: E2E, tenantId: string, token: string, seller: SellerAccount): Promise<OfferTargets> {
  type Seeded = { id: string; state: string; private: boolean; expired: boolean };
  const account = (await (await fetch(seller.control)).json()) as {
    products: { id: string; visibility: string }[];
    offers: Seeded[];
  };
  const productId = account.products.find((p) => p.visibility === "Public")!.id;
  const M = `/v1/tenants/${tenantId}/integrations/marketplace`;
  // Drafts made here: only a draft can be released or changed (a released one is refused at once).
  const draft = async () => {
    const created = await e2e.call("POST", `${M}/offers`, { token, body: offerBody(productId) });
    assert.equal(created.status, 202, created.text);
    let change = created.json;
    for (let i = 0; i < 200 && !["succeeded", "failed"].includes(change.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      change = (await e2e.call("GET", `${M}/changes/${created.json.change_set_id}`, { token })).json;
    }
    assert.equal(change.status, "succeeded", JSON.stringify(change));
    return change as { change_set_id: string; offer_id: string };
  };
  const [change, forKey, ...toUpdate] = await Promise.all([1, 2, 3, 4, 5].map(draft));
  const find = (f: (o: Seeded) => boolean) => account.offers.find(f)!.id;
  const [publicA] = account.offers.filter((o) => !o.private).map((o) => o.id);
  const privateReleased = find((o) => o.private && o.state === "Released" && !o.expired);
  return {
    productId,
    changeSetId: change!.change_set_id,
    readable: privateReleased,
    release: { admin: find((o) => o.state === "Draft"), owner: change!.offer_id, "write API key": forKey!.offer_id },
    expire: { admin: privateReleased, owner: find((o) => o.expired), "write API key": publicA },
    update: { admin: toUpdate[0]!.offer_id, owner: toUpdate[1]!.offer_id, "write API key": toUpdate[2]!.offer_id },
  };
}

/** The one expected status of a cell; `success` is the route's documented success status. */
function expected(route: RouteSpec, caller: Caller): number {
  const success = Number(Object.keys(route.responses).find((s) => Number(s) < 300));
  const minRole = route.minRole ?? "member";
  switch (caller) {
    case "anonymous":
    case "malformed token":
    case "expired token":
    case "unknown signing key":
    case "wrong audience":
    case "MCP-audience token":
    case "disabled account":
    case "revoked API key":
      return 401;
    case "another tenant's member":
    case "another tenant's API key":
      return 404;
    case "member":
      return atLeast("member", minRole) ? success : 403;
    case "admin":
      return atLeast("admin", minRole) ? success : 403;
    case "owner":
      return success;
    case "read API key":
      return route.apiKey === "read" ? success : 403;
    case "write API key":
      return route.apiKey ? success : 403;
  }
}

async function buildWorld(e2e: E2E): Promise<World> {
  const [owner, admin, member, target, outsider, disabled] = await Promise.all([
    e2e.signUp(),
    e2e.signUp(),
    e2e.signUp(),
    e2e.signUp(),
    e2e.signUp(),
    e2e.signUp(),
  ]);
  const created = await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Matrix" } });
  const tenantId = created.json.id as string;
  for (const [user, role] of [
    [admin, "admin"],
    [member, "member"],
    [target, "member"],
    [disabled, "member"],
  ] as const) {
    await e2e.addMember(owner, tenantId, user, role);
  }
  const otherTenant = (await e2e.call("POST", "/v1/tenants", { token: outsider.token, body: { name: "Elsewhere" } }))
    .json.id as string;
  const key = async (token: string, tenant: string, scope: "read" | "write") => {
    const res = await e2e.call("POST", `/v1/tenants/${tenant}/api-keys`, {
      token,
      body: { name: `k-${scope}`, scope },
    });
    assert.equal(res.status, 201, res.text);
    return { id: res.json.key_id as string, secret: recordSecret(res.json.secret as string) };
  };
  const [read, write, revoked, foreign] = await Promise.all([
    key(owner.token, tenantId, "read"),
    key(owner.token, tenantId, "write"),
    key(owner.token, tenantId, "write"),
    key(outsider.token, otherTenant, "write"),
  ]);

  let seller: SellerAccount | undefined;
  if (e2e.sandbox) {
    // The marketplace routes need the flag on and a connected seller account (CloudFormation path).
    const flag = await e2e.call("PUT", `/v1/tenants/${tenantId}/features`, {
      token: owner.token,
      body: { marketplace_offers: true },
    });
    assert.equal(flag.status, 200, flag.text);
    seller = await sellerAccount({ call: e2e.call, sandbox: e2e.sandbox }, {}, { tenantId, token: owner.token });
    const connect = await e2e.call("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, {
      token: owner.token,
      body: { role_arn: seller.roleArn },
    });
    assert.equal(connect.status, 200, connect.text);
  }
  const offers = e2e.offers && seller ? await offerTargets(e2e, tenantId, owner.token, seller) : undefined;

  // Warm the gateway's caches with the credentials about to be revoked, so the matrix proves invalidation, not a cold cache.
  assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: revoked.secret })).status, 200);
  assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: disabled.token })).status, 200);
  assert.equal(
    (await e2e.call("DELETE", `/v1/tenants/${tenantId}/api-keys/${revoked.id}`, { token: owner.token })).status,
    204,
  );
  // Disabling has no public route (an operator verb); its invalidations reach gateways as AccessRevoked events,
  // applied here directly (revocation.test.ts covers the queue).
  const ctx = e2e.identity.ctx({ kind: "system" });
  await disableAccount({ ctx, sub: disabled.sub });
  e2e.gateway.gateway.invalidate(ctx.invalidations);

  // A real token of the OAuth authorization server (aud = the MCP resource), for the owner, in this tenant.
  const oauth = oauthDriver(e2e.identity);
  const mcpClient = await oauth.register(["http://127.0.0.1/callback"]);
  const mcpToken = (await oauth.tokens(owner, mcpClient, "http://127.0.0.1/callback")).access_token;

  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: owner.sub, sid: owner.sid, iss: ISSUER, aud: AUDIENCE };
  const stranger = await testSigningKey();
  return {
    e2e,
    tenantId,
    owner,
    admin,
    member,
    target,
    liveKeyId: read.id,
    ...(seller ? { seller } : {}),
    ...(offers ? { offers } : {}),
    credentials: {
      anonymous: undefined,
      "malformed token": "not-a-token",
      "expired token": await e2e.forgeWithRealKey(claims, now - 1000, now - 100),
      "unknown signing key": recordSecret(await stranger.sign(claims)),
      "wrong audience": await e2e.forgeWithRealKey({ ...claims, aud: "someone-else" }, now, now + 600),
      "MCP-audience token": mcpToken,
      "disabled account": disabled.token,
      "revoked API key": revoked.secret,
      "another tenant's member": outsider.token,
      "another tenant's API key": foreign.secret,
      member: member.token,
      admin: admin.token,
      owner: owner.token,
      "read API key": read.secret,
      "write API key": write.secret,
    },
  };
}

const CALLERS = [
  "anonymous",
  "malformed token",
  "expired token",
  "unknown signing key",
  "wrong audience",
  "MCP-audience token",
  "disabled account",
  "revoked API key",
  "another tenant's member",
  "another tenant's API key",
  "member",
  "admin",
  "owner",
  "read API key",
  "write API key",
] as const satisfies readonly Caller[];

describe("the authorization matrix of every tenant route", () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld(await startE2E("gw_matrix", {}, undefined, { connector: true, offers: true }));
  });
  afterAll(() => w.e2e.close());

  const tenantRoutes = routes.filter((r) => r.auth === "tenant");

  it("has a case for every tenant route of the registry", () => {
    assert.ok(tenantRoutes.length >= 13);
    const missing = tenantRoutes.filter((r) => !cases[r.id]).map((r) => r.id);
    assert.deepEqual(missing, [], `tenant routes missing from the matrix: ${missing.join(", ")}`);
  });

  for (const route of tenantRoutes) {
    it(`${route.method} ${route.path} (${route.id}) answers every caller as expected, leaking nothing`, async () => {
      const prepare = cases[route.id];
      assert.ok(prepare, `no matrix case for ${route.id}`);
      const wrong: string[] = [];
      // What a missing tenant looks like on this route: "not yours" must be indistinguishable.
      const missingPath = (await prepare(w, "outsider" as Caller, false)).path.replace(w.tenantId, randomId("tnt"));
      const missing = await w.e2e.call(route.method, missingPath, {
        token: w.owner.token,
        body: (await prepare(w, "owner", false)).body,
      });
      assert.equal(missing.status, 404, missing.text);
      for (const caller of CALLERS) {
        const want = expected(route, caller);
        const { path, body } = await prepare(w, caller, want < 300);
        const seen = w.e2e.reached.length;
        const res = await w.e2e.call(route.method, path, { token: w.credentials[caller], body });
        const passed = w.e2e.reached.slice(seen);
        // identity-svc re-checks access itself; the gateway must refuse on its own, never relying on that.
        if (want >= 400 && passed.length)
          wrong.push(`${caller}: refused, but the gateway let ${passed.join(", ")} through to identity-svc`);
        if (res.status !== want) {
          wrong.push(`${caller}: expected ${want}, got ${res.status} ${res.text.slice(0, 200)}`);
          continue;
        }
        if (want >= 400) {
          assert.equal(res.headers.get("content-type"), "application/problem+json", `${caller}`);
          assert.doesNotMatch(
            res.text,
            new RegExp(`${w.owner.sub}|Matrix|Renamed|secret`),
            `${caller}: a refusal carries tenant data`,
          );
          if (want === 401)
            assert.match(
              res.json.code,
              /^(UNAUTHENTICATED|INVALID_TOKEN|TOKEN_EXPIRED|SESSION_REVOKED|INVALID_API_KEY)$/,
            );
          if (want === 404) {
            const { request_id: _a, ...got } = res.json;
            const { request_id: _b, ...reference } = missing.json;
            assert.deepEqual(got, reference, `${caller}: another tenant must look exactly like a missing one`);
          }
        }
        if (route.id === "api_keys.create" && res.status === 201) recordSecret(res.json.secret as string);
      }
      assert.deepEqual(wrong, [], `${route.id}:\n  ${wrong.join("\n  ")}`);
    });
  }
});

/** Routes for any signed-in user: every credential that is not a live user session is refused at the gateway. */
/** An open invitation for the world's plain member, to a tenant of its own. */
const freshInvitation = async (w: World) => {
  const res = await w.e2e.call("POST", `/v1/tenants/${await freshTenant(w)}/members`, {
    token: w.owner.token,
    body: { email: w.member.email, role: "member" },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.invitation_id as string;
};

const userCases: Record<string, (w: World) => Promise<{ token: string; path?: string; body?: unknown }>> = {
  "users.me.invitations.list": async (w) => ({ token: w.member.token }),
  "users.me.invitations.accept": async (w) => ({
    token: w.member.token,
    path: `/v1/users/me/invitations/${await freshInvitation(w)}/accept`,
  }),
  "users.me.invitations.decline": async (w) => ({
    token: w.member.token,
    path: `/v1/users/me/invitations/${await freshInvitation(w)}/decline`,
  }),
  "auth.signout": async (w) => ({ token: (await w.e2e.signIn(w.member.email, w.member.password)).token }),
  // A person of its own: it ends every session of the account it is called for.
  "auth.signout_everywhere": async (w) => ({ token: (await w.e2e.signUp()).token }),
  "users.me.get": async (w) => ({ token: w.member.token }),
  "users.me.update": async (w) => ({ token: w.member.token, body: { name: "Renamed Member" } }),
  "users.me.delete": async (w) => ({ token: (await w.e2e.signUp()).token }),
  "users.me.notification_preferences.get": async (w) => ({ token: w.member.token }),
  "users.me.notification_preferences.update": async (w) => ({
    token: w.member.token,
    body: { product_updates: false },
  }),
  "tenants.create": async (w) => ({ token: w.member.token, body: { name: "Member's own" } }),
  "tenants.list": async (w) => ({ token: w.member.token }),
  "users.me.authorized_clients.list": async (w) => ({ token: w.member.token }),
  "users.me.authorized_clients.revoke": async (w) => {
    // A grant of the member's to revoke, made through the authorization server's own flow.
    const oauth = oauthDriver(w.e2e.identity);
    const client = await oauth.register(["http://127.0.0.1/callback"]);
    await oauth.tokens(w.member, client, "http://127.0.0.1/callback", { scope: "account" });
    return { token: w.member.token, path: `/v1/users/me/authorized-clients/${client}` };
  },
  "users.me.export.create": async (w) => ({ token: w.member.token }),
  "users.me.audit_events.list": async (w) => ({ token: w.member.token, path: "/v1/users/me/audit-events?limit=5" }),
  "users.me.export.get": async (w) => {
    const started = await w.e2e.call("POST", "/v1/users/me/export", { token: w.admin.token });
    assert.equal(started.status, 202, started.text);
    return { token: w.admin.token, path: `/v1/users/me/export/${started.json.job_id}` };
  },
};

describe("the authorization matrix of every signed-in-user route", () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld(await startE2E("gw_matrix_user", {}, undefined, { privacy: {} }));
  });
  afterAll(() => w.e2e.close());

  const userRoutes = routes.filter((r) => r.auth === "user");

  it("has a case for every user route of the registry", () => {
    const missing = userRoutes.filter((r) => !userCases[r.id]).map((r) => r.id);
    assert.deepEqual(missing, [], `user routes missing from the matrix: ${missing.join(", ")}`);
  });

  for (const route of userRoutes) {
    it(`${route.method} ${route.path} (${route.id}) admits only a live user session`, async () => {
      const prepare = userCases[route.id];
      assert.ok(prepare, `no matrix case for ${route.id}`);
      const valid = await prepare(w);
      const wrong: string[] = [];
      const refused: [Caller, number][] = [
        ["anonymous", 401],
        ["malformed token", 401],
        ["expired token", 401],
        ["unknown signing key", 401],
        ["wrong audience", 401],
        ["MCP-audience token", 401],
        ["disabled account", 401],
        ["revoked API key", 401],
        ["read API key", 403],
        ["write API key", 403],
      ];
      for (const [caller, want] of refused) {
        const seen = w.e2e.reached.length;
        const res = await w.e2e.call(route.method, valid.path ?? route.path, {
          token: w.credentials[caller],
          body: valid.body,
        });
        if (res.status !== want) wrong.push(`${caller}: expected ${want}, got ${res.status} ${res.text.slice(0, 200)}`);
        if (w.e2e.reached.length !== seen) wrong.push(`${caller}: reached ${w.e2e.reached.slice(seen).join(", ")}`);
      }
      const ok = await w.e2e.call(route.method, valid.path ?? route.path, valid);
      const success = Number(Object.keys(route.responses).find((s) => Number(s) < 300));
      if (ok.status !== success)
        wrong.push(`a live user session: expected ${success}, got ${ok.status} ${ok.text.slice(0, 200)}`);
      assert.deepEqual(wrong, [], `${route.id}:\n  ${wrong.join("\n  ")}`);
    });
  }
});
