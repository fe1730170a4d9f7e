import { randomBytes } from "node:crypto";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp, type Gateway, type GatewaySettings } from "../src/app.ts";
import { GatewayConfig } from "../src/config.ts";
import { OWN_ANSWER_HEADERS } from "../src/http/security-headers.ts";

/** The gateway's defaults as parsed from an environment that sets only IDENTITY_URL. */
export function testSettings(identityUrl: string, overrides: Partial<GatewaySettings> = {}): GatewaySettings {
  const parsed = GatewayConfig.parse({ IDENTITY_URL: identityUrl });
  return { ...parsed, ...overrides };
}

const many = 100_000;
/** Every rate limit of the gateway lifted: a stack's tests sign up, call and poll from one address, credential and tenant. */
export const unlimitedRates = {
  RATE_LIMIT_ANONYMOUS_PER_SEC: many,
  RATE_LIMIT_ANONYMOUS_BURST: many,
  RATE_LIMIT_CREDENTIAL_PER_SEC: many,
  RATE_LIMIT_CREDENTIAL_BURST: many,
  RATE_LIMIT_TENANT_PER_SEC: many,
  RATE_LIMIT_TENANT_BURST: many,
} satisfies Partial<GatewaySettings>;

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  secret: string;
  close(): Promise<void>;
}

/**
 * Starts the gateway's createApp on an ephemeral port, as main.ts would, minus Secrets Manager
 * and the queue (tests pass the assertion key and drive invalidations themselves).
 *
 * @example
 * const gw = await startGateway({ identityUrl, secret });
 * await fetch(`${gw.url}/v1/tenants`, { headers: { authorization: `Bearer ${token}` } });
 */
export async function startGateway(options: {
  identityUrl: string;
  secret?: string;
  routes?: readonly RouteSpec[];
  settings?: Partial<GatewaySettings>;
  /** A port chosen in advance (the OAuth tests need the gateway's URL as the issuer before it starts); default any. */
  port?: number;
}): Promise<RunningGateway> {
  const secret = options.secret ?? randomBytes(32).toString("base64url");
  const logger = createLogger({ service: "edge-gateway" });
  const gateway = createApp({
    config: testSettings(options.identityUrl, options.settings),
    logger,
    // Keys per caller derived from `secret` (ADR 0014), as every harness of one stack derives them.
    callerKeys: testKeyring("edge-gateway", secret),
    ...(options.routes ? { routes: options.routes } : {}),
  });
  const server = await serve(gateway, {
    host: "127.0.0.1",
    port: options.port ?? 0,
    logger,
    handleSignals: false,
    drainTimeoutMs: 1_000,
    headers: OWN_ANSWER_HEADERS,
  });
  return {
    url: server.url,
    gateway,
    secret,
    async close() {
      await server.shutdown("test done");
      await gateway.close();
    },
  };
}
