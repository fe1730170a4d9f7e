import { randomBytes, randomUUID } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { sha256Base64url, targetOf } from "@flowstate/shared/auth/identity-assertion";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { createApp } from "../app.ts";
import { ServiceContext } from "../context.ts";
import { type Argon2Params, argon2ParamsVar } from "../crypto/password.ts";
import { entities } from "../db/entities.ts";
import { migrations } from "../db/migrations.ts";
import type { IdentityDeps } from "../deps.ts";
import { buildDeps } from "../deps-factory.ts";
import type { DoorPushSettings } from "../doors/push-invalidations.ts";
import type { IdentityApp } from "../http/env.ts";
import type { CimdOptions } from "../oauth/cimd/fetcher.ts";
import { secretsManagerKeyStore } from "../tokens/key-store.ts";
import type { SignInThrottleSettings } from "../verbs/lib/sign-in-backoff.ts";
import { assertionHeaders } from "./assertion.ts";
import { gatewayTenant } from "./gateway-tenant.ts";

export interface TestUser {
  sub: string;
  sid: string;
  email: string;
  password: string;
  name: string;
  tokens: TokenResponse;
  identity: VerifiedIdentity & { kind: "user" };
}

export interface CallOptions {
  as?: VerifiedIdentity | undefined;
  body?: unknown;
  /** Raw body text instead of JSON (malformed-input tests). */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * identity-svc as the service-level tests drive it: createApp on a throwaway PostgreSQL schema and a
 * signing-key secret of its own in the local AWS emulator, requests signed like the gateway signs
 * them. Every helper mints fresh users and tenants and records their secrets for the log scan.
 */
export interface Harness {
  app: IdentityApp;
  deps: IdentityDeps;
  db: TestDatabase;
  secret: string;
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  signUp(overrides?: Partial<{ email: string; password: string; name: string }>): Promise<TestUser>;
  createTenant(owner: TestUser, name?: string): Promise<Tenant>;
  /** Invites `user` (as `by`, an admin or owner) and accepts as `user`: a member with `role`. */
  addMember(by: TestUser, tenantId: string, user: TestUser, role: "admin" | "member"): Promise<void>;
  /** Asks `to` (a member) to take the tenant over; returns the pending transfer's invitation id. */
  transferOwnership(owner: TestUser, tenantId: string, to: TestUser): Promise<string>;
  /** A real API key of the tenant, created by `by` (an admin or owner), as the identity the gateway would forward. */
  apiKey(by: TestUser, tenantId: string, scope: "read" | "write"): Promise<VerifiedIdentity & { kind: "api_key" }>;
  /** A verb context acting as `actor` (for verb-level tests and race tests). */
  ctx(actor: ServiceContext["actor"]): ServiceContext;
  close(): Promise<void>;
}

/** The MCP resource the harness's authorization server issues OAuth tokens for, unless a test names others. */
export const TEST_MCP_RESOURCE = "https://mcp.test/mcp";

export async function startHarness(options: {
  prefix: string;
  clock?: () => Date;
  keyActivationDelaySeconds?: number;
  /** The token issuer (default https://identity.test); end-to-end OAuth tests use the gateway's URL. */
  issuer?: string;
  oauthResources?: string[];
  cimd?: CimdOptions;
  signInThrottle?: Partial<SignInThrottleSettings>;
  /**
   * RFC 7591 registrations per address and hour. Test stacks register a client per OAuth sign-in,
   * all from one loopback address, so the default here is 1000; register.security.test.ts sets 10.
   */
  oauthRegistrationsPerHour?: number;
  /** Door leases and pushes (ADR 0011): a test of eviction shortens them. */
  doorPush?: Partial<DoorPushSettings>;
  /** Password hashing cost; default the test run's `ARGON2_PARAMS` (cheap), else OWASP's. */
  argon2?: Argon2Params;
}): Promise<Harness> {
  const logger = createLogger({ service: "identity-svc" });
  const db = await openTestDatabase({ prefix: options.prefix, entities, migrations, logger });
  const secret = randomBytes(32).toString("base64url");
  const secrets = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("secretsmanager");
  const deps = await buildDeps({
    orm: db.orm,
    logger,
    // Keys per caller derived from the same test secret as every other harness (ADR 0014).
    callerKeys: testKeyring("identity-svc", secret),
    signInThrottleSecret: randomBytes(32).toString("base64url"),
    keyStore: secretsManagerKeyStore(secrets, `test/${db.schema}/identity/signing-keys`),
    issuer: options.issuer ?? "https://identity.test",
    audience: "flowstate-test",
    accessTokenTtlSeconds: 900,
    sessionTtlDays: 30,
    keyActivationDelaySeconds: options.keyActivationDelaySeconds ?? 900,
    ...(options.clock ? { clock: options.clock } : {}),
    oauthResources: options.oauthResources ?? [TEST_MCP_RESOURCE],
    ...(options.cimd ? { cimd: options.cimd } : {}),
    ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    oauthRegistrationsPerHour: options.oauthRegistrationsPerHour ?? 1000,
    ...(options.doorPush ? { doorPush: options.doorPush } : {}),
    argon2: options.argon2 ?? argon2ParamsVar.parse(process.env.ARGON2_PARAMS),
  });
  const app = createApp(deps, { checkResponses: true });

  const tenantOf = gatewayTenant(deps);
  const call: Harness["call"] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (o.as) {
      // The target as the service will see it: what URL parsing makes of the path (`{` → `%7B`, …).
      const target = targetOf(new URL(path, "http://localhost").href);
      const binding = { method, target, bodySha256: sha256Base64url(body ?? "") };
      Object.assign(headers, assertionHeaders(secret, binding, o.as, await tenantOf(method, target, o.as)));
    }
    if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    return app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  };

  const expectOk = async (res: Response, what: string) => {
    if (res.status >= 300) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
    return res;
  };

  const h: Harness = {
    app,
    deps,
    db,
    secret,
    call,
    async signUp(overrides = {}) {
      const email = overrides.email ?? `u-${randomUUID()}@example.test`;
      const password = recordSecret(overrides.password ?? `pw-${randomUUID()}`);
      const name = overrides.name ?? "Test User";
      const { sub } = (await (
        await expectOk(await call("POST", "/v1/auth/signup", { body: { email, password, name } }), "signup")
      ).json()) as { sub: string };
      const tokens = (await (
        await expectOk(await call("POST", "/v1/auth/signin", { body: { email, password } }), "signin")
      ).json()) as TokenResponse;
      recordSecret(tokens.access_token);
      recordSecret(tokens.refresh_token);
      const sid = decodeJwt(tokens.access_token).sid as string;
      return { sub, sid, email, password, name, tokens, identity: { kind: "user", sub, sid } };
    },
    async createTenant(owner, name = `Tenant ${randomUUID().slice(0, 8)}`) {
      const res = await expectOk(
        await call("POST", "/v1/tenants", { as: owner.identity, body: { name } }),
        "create tenant",
      );
      return (await res.json()) as Tenant;
    },
    async addMember(by, tenantId, user, role) {
      const invited = await expectOk(
        await call("POST", `/v1/tenants/${tenantId}/members`, { as: by.identity, body: { email: user.email, role } }),
        "invite member",
      );
      const { invitation_id } = (await invited.json()) as { invitation_id: string };
      await expectOk(
        await call("POST", `/v1/users/me/invitations/${invitation_id}/accept`, { as: user.identity }),
        "accept invitation",
      );
    },
    async transferOwnership(owner, tenantId, to) {
      const asked = await expectOk(
        await call("POST", `/v1/tenants/${tenantId}/ownership-transfer`, {
          as: owner.identity,
          body: { new_owner_sub: to.sub },
        }),
        "ask for an ownership transfer",
      );
      return ((await asked.json()) as { invitation_id: string }).invitation_id;
    },
    async apiKey(by, tenantId, scope) {
      const res = await expectOk(
        await call("POST", `/v1/tenants/${tenantId}/api-keys`, { as: by.identity, body: { name: "test", scope } }),
        "create API key",
      );
      const key = (await res.json()) as { key_id: string; secret: string };
      recordSecret(key.secret);
      return { kind: "api_key", sub: by.sub, key_id: key.key_id, tenant_id: tenantId, scope };
    },
    ctx(actor) {
      return new ServiceContext(deps, { actor });
    },
    close: () => db.close(),
  };
  return h;
}

/** The parsed `flowstate-invalidate` header of an answer (empty when absent). */
export function invalidationsOf(res: Response): unknown[] {
  const raw = res.headers.get("flowstate-invalidate");
  return raw ? (JSON.parse(raw) as unknown[]) : [];
}

/** The events enqueued in the harness's outbox, oldest first (optionally of one key, e.g. "TenantCreated.v1"). */
export async function outboxEvents(
  h: Harness,
  key?: string,
): Promise<{ event_key: string; envelope: { data: Record<string, unknown>; tenant_id?: string; subject?: string } }[]> {
  const rows = await h.db.orm.em
    .fork()
    .execute(
      `SELECT event_key, envelope FROM "${h.db.schema}".outbox_event ${key ? "WHERE event_key = ?" : ""} ORDER BY seq`,
      key ? [key] : [],
    );
  return rows as never;
}

/** A concrete path for a registry template: `{id}` → tenantId, `{sub}` → sub, `{key_id}` → keyId. */
export function fillPath(template: string, values: { id?: string; sub?: string; key_id?: string }): string {
  return template.replace(
    /\{(\w+)\}/g,
    (_, name: string) => (values as Record<string, string | undefined>)[name] ?? `missing_${name}`,
  );
}
