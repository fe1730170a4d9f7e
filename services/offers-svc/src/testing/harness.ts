import { randomBytes } from "node:crypto";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { type RunningSandbox, startSandbox } from "@flowstate/seller-sandbox/testing/start-sandbox";
import { IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import type { TestDatabase } from "@flowstate/shared/db/test-database";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { createApp } from "../app.ts";
import type { OffersDeps } from "../deps.ts";
import type { OffersApp } from "../http/env.ts";
import { CurrencyCache } from "../marketplace/currency-cache.ts";
import { startTracker, type Tracker } from "../tracker/tracker.ts";
import { startAgreementWatch } from "../watch/watch.ts";
import { marketplace } from "./offer-fixtures.ts";
import { type ConnectedSeller, type ConnectOptions, sandboxSellers } from "./sandbox-sellers.ts";
import { openOffersTestDatabase } from "./test-database.ts";

export interface TestTenant {
  id: string;
  admin: VerifiedIdentity & { kind: "user" };
  member: VerifiedIdentity & { kind: "user" };
}

export interface CallOptions {
  as?: VerifiedIdentity | undefined;
  /** The role the gateway resolved (default: admin for users, the key creator's admin role for keys). */
  role?: TenantRole;
  channel?: "rest" | "mcp";
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * offers-svc as the service-level tests drive it: createApp on a throwaway PostgreSQL schema, the
 * change-set tracker running against it, an in-process seller sandbox, and requests signed like
 * the gateway signs them. Each test mints its own tenant (and seller account with `connect`).
 */
export interface Harness {
  app: OffersApp;
  deps: OffersDeps;
  db: TestDatabase;
  sandbox: RunningSandbox;
  sellers: ReturnType<typeof sandboxSellers>;
  tracker: Tracker;
  secret: string;
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  tenant(): TestTenant;
  /** A fresh seller account with the connector stack deployed (current or legacy policy), connected for `tenantId`. */
  connect(tenantId: string, options?: ConnectOptions): Promise<ConnectedSeller>;
  /** GET .../changes/{id} until the change set ends. */
  waitForChange(tenant: TestTenant, changeSetId: string, timeoutMs?: number): Promise<OfferChange>;
  /** Stops the tracker (a restart test starts another on the same database). */
  restartTracker(): Promise<void>;
  /** Stops the agreement watch and starts another on the same database (a restart). */
  restartWatch(): Promise<void>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

export async function startHarness(options: {
  prefix: string;
  currencyTtlMs?: number;
  /** Where the service's log lines go as well (captureLogs().stream), at debug. */
  logTo?: NodeJS.WritableStream;
  /** The agreement watch's interval (default 500 ms). */
  watchIntervalMs?: number;
}): Promise<Harness> {
  const { logger, db } = await openOffersTestDatabase(options.prefix, options.logTo);
  const sandbox = await startSandbox();
  const sellers = sandboxSellers(sandbox.endpoint, logger);
  const secret = randomBytes(32).toString("base64url");
  let tracker: Tracker | undefined;
  const deps: OffersDeps = {
    orm: db.orm,
    schema: db.schema,
    logger,
    callerKeys: testKeyring("offers-svc", secret),
    // No identity-svc here: every signed credential counts as live (the seam's acceptance test checks for real).
    credentials: credentialsAsSigned,
    sellers,
    currencies: new CurrencyCache({ ttlMs: options.currencyTtlMs ?? 30_000, undeterminedTtlMs: 1000, max: 1000 }),
    wakeTracker: () => tracker?.wake(),
    clock: () => new Date(),
    agreementWatchIntervalMs: options.watchIntervalMs ?? 500,
  };
  tracker = startTracker(deps, { idleMs: 100 });
  let watch = startAgreementWatch(deps);
  const app = createApp(deps, { checkResponses: true });

  const call: Harness["call"] = (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const tenantId = /^\/v1\/tenants\/([^/]+)/.exec(path)?.[1];
    let assertion: object | undefined;
    if (o.as) {
      assertion = {
        identity: o.as,
        ...(tenantId ? { tenant: { tenant_id: tenantId, role: o.role ?? "admin" } } : {}),
        channel: o.channel ?? "rest",
      };
    }
    let body: string | undefined = o.raw;
    if (body === undefined && o.body !== undefined) body = JSON.stringify(o.body);
    if (o.as) {
      const binding = { method, target: path, bodySha256: sha256Base64url(body ?? "") };
      headers[IDENTITY_HEADER] = signedAs(secret, "offers-svc", binding, assertion as never);
    }
    if (body !== undefined) headers["content-type"] ??= "application/json";
    return Promise.resolve(app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }));
  };

  const h: Harness = {
    app,
    deps,
    db,
    sandbox,
    sellers,
    get tracker() {
      return tracker as Tracker;
    },
    secret,
    call,
    tenant: () => ({
      id: id("tnt"),
      admin: { kind: "user", sub: id("usr"), sid: id("ses") },
      member: { kind: "user", sub: id("usr"), sid: id("ses") },
    }),
    connect: (tenantId, o = {}) => sellers.connect(tenantId, o),
    async waitForChange(t, changeSetId, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const res = await call("GET", `/v1/tenants/${t.id}/integrations/marketplace/changes/${changeSetId}`, {
          as: t.member,
          role: "member",
        });
        const change = (await res.json()) as OfferChange;
        if (res.status !== 200) throw new Error(`GET change ${changeSetId}: ${res.status} ${JSON.stringify(change)}`);
        if (["succeeded", "failed", "cancelled"].includes(change.status)) return change;
        if (Date.now() > until) throw new Error(`change set ${changeSetId} still ${change.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async restartTracker() {
      await tracker?.stop();
      tracker = startTracker(deps, { idleMs: 100 });
    },
    async restartWatch() {
      await watch.stop();
      watch = startAgreementWatch(deps);
    },
    async close() {
      await tracker?.stop();
      await watch.stop();
      sellers.close();
      await sandbox.stop();
      await db.close();
    },
  };
  return h;
}

/** The events in the harness's outbox for one tenant, oldest first (optionally of one key). */
export async function outboxEvents(
  h: Harness,
  tenantId: string,
  key?: string,
): Promise<{ event_key: string; envelope: { data: Record<string, unknown>; actor: unknown; request_id?: string } }[]> {
  return h.db.orm.em.fork().execute(
    `SELECT event_key, envelope FROM "${h.db.schema}".outbox_event
        WHERE envelope->>'tenant_id' = ? ${key ? "AND event_key = ?" : ""} ORDER BY seq`,
    key ? [tenantId, key] : [tenantId],
  );
}

/** A tenant connected to a fresh seller account, and the id of one of its public (offerable) products. */
export async function connectedTenant(
  h: Harness,
  options: ConnectOptions = {},
): Promise<{ t: TestTenant; productId: string; seller: ConnectedSeller }> {
  const t = h.tenant();
  const seller = await h.connect(t.id, options);
  const account = (await (await fetch(seller.control)).json()) as { products: { id: string; visibility: string }[] };
  return { t, seller, productId: account.products.find((p) => p.visibility === "Public")?.id ?? "" };
}

/**
 * A tenant's agreements read as a client reads them: a read during the watch's first pass waits for
 * it, up to 5 s (list-agreements.ts); past that, or while a failed pass waits to retry, the answer
 * is 503 UPSTREAM_UNAVAILABLE with Retry-After ("being read from AWS") and the client asks again
 * (three files run at once in CI on a loaded machine).
 */
export async function readAgreements(h: Harness, t: TestTenant, query = ""): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await h.call("GET", `${marketplace(t.id, "agreements")}${query}`, { as: t.member, role: "member" });
    if (res.status !== 503 || attempt >= 40) return res;
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The body of an answer, after asserting its status (the text is the assertion message). */
export async function answer<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
