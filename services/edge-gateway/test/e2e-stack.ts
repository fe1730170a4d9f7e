import { randomUUID } from "node:crypto";
import { type AuditHarness, startAuditHarness } from "@flowstate/audit-svc/testing/harness";
import { type RunningConnector, startConnectorService } from "@flowstate/connector-svc/testing/connector-service";
import { type Answer, type CallOptions, gatewayCaller } from "@flowstate/connector-svc/testing/gateway-caller";
import type { TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import type { RouteSpec, ServiceName } from "@flowstate/contracts/rest/route";
import { type Harness, startHarness } from "@flowstate/identity-svc/testing/harness";
import { type NotifyHarness, startNotifySvc } from "@flowstate/notify-svc/testing/harness";
import { type RunningOffers, startOffersService } from "@flowstate/offers-svc/testing/offers-service";
import { startPartnerSvc } from "@flowstate/partner-svc/testing/harness";
import { type PrivacyHarness, startPrivacyHarness } from "@flowstate/privacy-svc/testing/harness";
import { type RunningSandbox, startSandbox } from "@flowstate/seller-sandbox/testing/start-sandbox";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt, SignJWT } from "jose";
import type { GatewaySettings } from "../src/app.ts";
import { type RunningGateway, startGateway, unlimitedRates } from "./gateway-harness.ts";

/** What the identity harness signs tokens for (services/identity-svc/src/testing/harness.ts). */
export const ISSUER = "https://identity.test";
export const AUDIENCE = "flowstate-test";

export type { Answer, CallOptions } from "@flowstate/connector-svc/testing/gateway-caller";

export interface SeenAssertion {
  method: string;
  target: string;
  header: string;
}

export interface Account {
  sub: string;
  sid: string;
  email: string;
  password: string;
  token: string;
  refresh: string;
}

export interface E2E {
  identity: Harness;
  identityUrl: string;
  gateway: RunningGateway;
  /** `METHOD /path` of every request that reached identity-svc's public routes (not /internal): what the gateway let through. */
  reached: string[];
  /** Every `flowstate-identity` header identity-svc received, with its request: what an eavesdropper on the hop could capture. */
  assertions: SeenAssertion[];
  /** The request headers of every call the gateway relayed to identity-svc, by its request id. */
  relayedHeaders: Map<string, Headers>;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  signUp(): Promise<Account>;
  signIn(email: string, password: string): Promise<Account & { sub: string }>;
  /** `by` invites `user` to the tenant and `user` accepts, both through the gateway: a member with `role`. */
  addMember(by: Account, tenantId: string, user: Account, role: "admin" | "member"): Promise<void>;
  /** privacy-svc, when started with `{ privacy: {…} }`; it gathers from identityUrl. */
  privacy?: PrivacyHarness;
  privacyUrl?: string;
  /** Where each service this stack started listens, for tests that call services directly (not through the gateway). */
  urls: Partial<Record<ServiceName, string>>;
  /** connector-svc and its seller sandbox, when started with `{ connector: true }`. */
  connector?: RunningConnector;
  /** offers-svc, when started with `{ connector: true, offers: true }`. */
  offers?: RunningOffers;
  /** notify-svc behind the gateway (always started). */
  notify: NotifyHarness;
  sandbox?: RunningSandbox;
  /** A token signed with identity-svc's real key, with claims or lifetime of the test's choosing. */
  forgeWithRealKey(claims: Record<string, unknown>, iat: number, exp: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * identity-svc's createApp (real PostgreSQL schema of its own, signing keys in the local AWS
 * emulator) and the gateway's createApp, each on an ephemeral port, the gateway pointed at
 * identity-svc with the same assertion key. Tests speak HTTP to the gateway only; the identity
 * harness is used solely for what has no public route (disabling an account) and to read the
 * outbox. Every password, token and key minted goes through recordSecret for the log scan.
 */
export async function startE2E(
  prefix: string,
  settings: Partial<GatewaySettings> = {},
  routes?: readonly RouteSpec[],
  options: {
    connector?: boolean;
    offers?: boolean;
    identity?: Omit<Parameters<typeof startHarness>[0], "prefix">;
    privacy?: Omit<Parameters<typeof startPrivacyHarness>[0], "prefix" | "secret">;
  } = {},
): Promise<E2E> {
  const identity = await startHarness({ prefix, ...options.identity });
  const reached: string[] = [];
  const assertions: SeenAssertion[] = [];
  const relayedHeaders = new Map<string, Headers>();
  const observe = (app: { fetch: (r: Request, env?: never) => Response | Promise<Response> }) => ({
    fetch: (request: Request, env?: unknown) => {
      const url = new URL(request.url);
      const header = request.headers.get(IDENTITY_HEADER);
      if (header) assertions.push({ method: request.method, target: url.pathname + url.search, header });
      // Relayed calls carry the caller's address; the gateway's own lookups (/internal, and the JWKS
      // refetch an unknown key id triggers) and privacy-svc's gathering do not, and are not
      // something the gateway let through.
      if (request.headers.has("x-forwarded-for") && !url.pathname.startsWith("/internal/")) {
        reached.push(`${request.method} ${url.pathname}`);
        relayedHeaders.set(request.headers.get("x-request-id") ?? "", request.headers);
      }
      return app.fetch(request, env as never);
    },
  });
  const listen = (app: ReturnType<typeof observe>, service: string) =>
    serve(app, {
      host: "127.0.0.1",
      port: 0,
      logger: createLogger({ service }),
      handleSignals: false,
      drainTimeoutMs: 1_000,
    });
  const identityServer = await listen(observe(identity.app), "identity-svc");
  // connector-svc (with a seller sandbox) behind the gateway too, for the marketplace routes.
  let sandbox: RunningSandbox | undefined;
  let connector: RunningConnector | undefined;
  if (options.connector) {
    sandbox = await startSandbox();
    // Shares `reached` with identity-svc: a refusal must reach neither.
    connector = await startConnectorService({
      prefix: `${prefix}_cn`,
      secret: identity.secret,
      marketplaceEndpoint: sandbox.endpoint,
      reached,
      identityUrl: identityServer.url,
    });
  }
  // offers-svc behind the gateway too (it needs connector-svc for the tenant's connector).
  let offers: RunningOffers | undefined;
  if (options.offers && connector && sandbox) {
    offers = await startOffersService({
      prefix: `${prefix}_of`,
      secret: identity.secret,
      connectorUrl: connector.url,
      marketplaceEndpoint: sandbox.endpoint,
      reached,
      identityUrl: identityServer.url,
    });
  }
  let privacy: PrivacyHarness | undefined;
  let privacyServer: Awaited<ReturnType<typeof listen>> | undefined;
  if (options.privacy) {
    privacy = await startPrivacyHarness({
      participantUrls: { "identity-svc": identityServer.url },
      ...options.privacy,
      prefix: `${prefix}_p`,
      secret: identity.secret,
    });
    privacyServer = await listen(observe(privacy.app), "privacy-svc");
  }
  const partner = await startPartnerSvc(prefix, identity.secret);
  // notify-svc behind the gateway too; its writes re-check credentials at the real identity-svc.
  const notify = await startNotifySvc({ prefix, secret: identity.secret, identityUrl: identityServer.url });
  // audit-svc behind the gateway too (its routes are read-only and its harness cheap).
  const audit: AuditHarness = await startAuditHarness({ prefix: `${prefix}_au`, secret: identity.secret });
  const auditServer = await listen(observe(audit.app), "audit-svc");
  const gateway = await startGateway({
    identityUrl: identityServer.url,
    secret: identity.secret,
    // Every service of the stack holds its `gateway--<service>` pair (ADR 0014): the door signs with it.
    ...(routes ? { routes } : {}),
    settings: {
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      ...unlimitedRates,
      PARTNER_URL: partner.url,
      NOTIFY_URL: notify.url,
      AUDIT_URL: auditServer.url,
      ...(connector ? { CONNECTOR_URL: connector.url } : {}),
      ...(offers ? { OFFERS_URL: offers.url } : {}),
      ...(privacyServer ? { PRIVACY_URL: privacyServer.url } : {}),
      ...settings,
    },
  });

  if (connector) connector.deps.settings.templateUrl = `${gateway.url}/v1/marketplace/connector-role/template.json`;

  const { call } = gatewayCaller(gateway.url);

  const expect = (answer: Answer, status: number, what: string) => {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text}`);
    return answer;
  };

  const signIn: E2E["signIn"] = async (email, password) => {
    const tokens = expect(await call("POST", "/v1/auth/signin", { body: { email, password } }), 200, "sign-in")
      .json as TokenResponse;
    recordSecret(tokens.access_token);
    recordSecret(tokens.refresh_token);
    const claims = decodeJwt(tokens.access_token);
    return {
      sub: claims.sub!,
      sid: claims.sid as string,
      email,
      password,
      token: tokens.access_token,
      refresh: tokens.refresh_token,
    };
  };

  return {
    identity,
    identityUrl: identityServer.url,
    ...(privacy && privacyServer ? { privacy, privacyUrl: privacyServer.url } : {}),
    urls: {
      "identity-svc": identityServer.url,
      "partner-svc": partner.url,
      "notify-svc": notify.url,
      "audit-svc": auditServer.url,
      ...(privacyServer ? { "privacy-svc": privacyServer.url } : {}),
      ...(connector ? { "connector-svc": connector.url } : {}),
      ...(offers ? { "offers-svc": offers.url } : {}),
    },
    gateway,
    reached,
    assertions,
    relayedHeaders,
    call,
    signIn,
    async signUp() {
      const email = `gw-${randomUUID()}@example.test`;
      const password = recordSecret(`pw-${randomUUID()}`);
      expect(
        await call("POST", "/v1/auth/signup", { body: { email, password, name: "Gateway Tester" } }),
        201,
        "sign-up",
      );
      return signIn(email, password);
    },
    async addMember(by, tenantId, user, role) {
      const invited = expect(
        await call("POST", `/v1/tenants/${tenantId}/members`, { token: by.token, body: { email: user.email, role } }),
        201,
        "invite",
      );
      const id = invited.json.invitation_id as string;
      expect(await call("POST", `/v1/users/me/invitations/${id}/accept`, { token: user.token }), 200, "accept");
    },
    async forgeWithRealKey(claims, iat, exp) {
      const { kid, key } = await identity.deps.keyring.signingKey(new Date());
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return recordSecret(token);
    },
    ...(connector && sandbox ? { connector, sandbox } : {}),
    ...(offers ? { offers } : {}),
    notify,
    async close() {
      await gateway.close();
      await privacyServer?.shutdown("test done");
      await privacy?.close();
      await identityServer.shutdown("test done");
      await partner.close();
      await notify.close();
      await auditServer.shutdown("test done");
      await audit.close();
      await identity.close();
      await offers?.close();
      await connector?.close();
      await sandbox?.stop();
    },
  };
}
