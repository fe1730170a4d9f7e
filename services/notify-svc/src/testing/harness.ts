import { randomBytes } from "node:crypto";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { newId } from "@flowstate/shared/ids/new-id";
import { createLogger } from "@flowstate/shared/log/logger";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import { callSigner } from "@flowstate/shared/seam/verify-caller";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { createApp } from "../app.ts";
import { migrations } from "../db/migrations.ts";
import { remoteMailTarget, remoteTenantAdmins } from "../delivery/identity-client.ts";
import { type DeliveryWorker, startDeliveryWorker } from "../delivery/worker.ts";
import type { DeliverySettings, NotifyDeps } from "../deps.ts";
import type { NotifyApp } from "../http/env.ts";

/**
 * Delivery settings for tests: loopback receivers over http allowed (the local-development
 * exceptions, named explicitly), and production's 24 h of backoff shrunk to seconds.
 */
export const testDelivery = (o: Partial<DeliverySettings> = {}): DeliverySettings => ({
  allowHttp: true,
  allowedAddresses: new Set(["127.0.0.1"]),
  timeoutMs: 5_000,
  retryWindowMs: 60_000,
  backoffBaseMs: 200,
  backoffMaxMs: 1_000,
  disableAfterFailures: 10,
  pollMs: 50,
  logDays: 30,
  secretOverlapMs: 86_400_000,
  ...o,
});

export interface NotifyHarness {
  app: NotifyApp;
  deps: NotifyDeps;
  db: TestDatabase;
  worker: DeliveryWorker;
  secret: string;
  /** Its app on an ephemeral port (for a gateway in front of it). */
  url: string;
  /** A request straight to the app, signed as the gateway signs it (`role`: the caller's role in the path's tenant). */
  call(
    method: string,
    path: string,
    o?: { as?: VerifiedIdentity; role?: TenantRole; body?: unknown },
  ): Promise<Response>;
  /** A delivered message in an endpoint's log, written straight to the tables (what a replay needs). */
  seedDelivery(tenantId: string, endpointId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * notify-svc on a throwaway schema with its delivery worker running, for its tests and the
 * gateway's end-to-end ones. Without `identityUrl` a write trusts the signed caller
 * (`credentialsAsSigned`); with it, writes re-check at that identity-svc as in production.
 */
export async function startNotifySvc(
  o: {
    prefix?: string;
    secret?: string;
    identityUrl?: string;
    delivery?: Partial<DeliverySettings>;
    /** SES v2's sender identity (verified by the test on its moto). */
    mailFrom?: string;
    /**
     * Where SES is (default: the suite's moto). A test that reads sent mail gives its own moto:
     * the shared one's state page serialises every suite's resources and, late in a full run,
     * failed or timed out (two CI runs lost the e-mail tests that way).
     */
    sesEndpoint?: string;
  } = {},
): Promise<NotifyHarness> {
  const db = await openTestDatabase({ prefix: `${o.prefix ?? "notify"}_nt`, migrations });
  const secret = o.secret ?? randomBytes(32).toString("base64url");
  const logger = createLogger({ service: "notify-svc" });
  const platform = { orm: db.orm, schema: db.schema, logger, callerKeys: testKeyring("notify-svc", secret) };
  const deps: NotifyDeps = {
    ...platform,
    credentials: o.identityUrl
      ? remoteCredentials({ identityUrl: o.identityUrl, sign: callSigner(platform, "notify-svc", "identity-svc") })
      : credentialsAsSigned,
    delivery: testDelivery(o.delivery),
    clock: () => new Date(),
    ses: createAwsClients({ endpoint: o.sesEndpoint ?? process.env.AWS_ENDPOINT_URL }).data("sesv2"),
    mailFrom: o.mailFrom ?? "notify@flowstate.test",
    // Without identity-svc there is nobody to tell: a disabled endpoint's notice is marked sent to no one.
    tenantAdmins: o.identityUrl
      ? remoteTenantAdmins(o.identityUrl, callSigner(platform, "notify-svc", "identity-svc"))
      : async () => [],
    mailTarget: o.identityUrl
      ? remoteMailTarget(o.identityUrl, callSigner(platform, "notify-svc", "identity-svc"))
      : async () => null,
  };
  const app = createApp(deps, { checkResponses: true });
  const worker = await startDeliveryWorker(deps);
  const server = await serve(app, { host: "127.0.0.1", port: 0, logger, handleSignals: false, drainTimeoutMs: 1_000 });
  return {
    app,
    deps,
    db,
    worker,
    secret,
    url: server.url,
    call(method, path, c = {}) {
      const headers: Record<string, string> = {};
      const body = c.body === undefined ? undefined : JSON.stringify(c.body);
      const tenantId = /^\/v1\/tenants\/([^/]+)/.exec(path)?.[1];
      if (c.as)
        headers[IDENTITY_HEADER] = signedAs(
          secret,
          "notify-svc",
          { method, target: path, bodySha256: sha256Base64url(body ?? "") },
          {
            identity: c.as,
            channel: "rest",
            ...(tenantId ? { tenant: { tenant_id: tenantId, role: c.role ?? "admin" } } : {}),
          },
        );
      if (body !== undefined) headers["content-type"] = "application/json";
      return Promise.resolve(app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }));
    },
    async seedDelivery(tenantId, endpointId) {
      const messageId = newId("msg", { timeOrdered: true });
      const deliveryId = newId("dlv", { timeOrdered: true });
      await db.orm.em.fork().transactional(async (em) => {
        await em.execute(
          `INSERT INTO ${qualifiedTable(db.schema, "message")} (id, tenant_id, event_id, type, body) VALUES (?, ?, ?, ?, ?)`,
          [messageId, tenantId, newId("evt"), "offer.released", JSON.stringify({ type: "offer.released", data: {} })],
        );
        await em.execute(
          `INSERT INTO ${qualifiedTable(db.schema, "delivery")} (id, tenant_id, endpoint_id, message_id, status, attempts, delivered_at)
           VALUES (?, ?, ?, ?, 'succeeded', 1, now())`,
          [deliveryId, tenantId, endpointId, messageId],
        );
      });
      return deliveryId;
    },
    async close() {
      await server.shutdown("test done");
      await worker.stop();
      await db.close();
    },
  };
}
