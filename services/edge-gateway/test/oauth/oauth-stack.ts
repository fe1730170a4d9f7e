import type { CimdOptions } from "@flowstate/identity-svc/oauth/cimd/fetcher";
import { type Harness, startHarness } from "@flowstate/identity-svc/testing/harness";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { freePort } from "../../../../deploy/local/ports.ts";
import { type RunningGateway, startGateway } from "../gateway-harness.ts";
import { startMcpResourceServer } from "./mcp-resource-server.ts";

export { freePort };

export interface OAuthStack {
  identity: Harness;
  /** The gateway's origin, which is the issuer: every OAuth endpoint is reached through it. */
  issuer: string;
  gateway: RunningGateway;
  mcp: Awaited<ReturnType<typeof startMcpResourceServer>>;
  /** Moves identity-svc's and the resource server's clocks together (token expiry without waiting). */
  skew(ms: number): void;
  close(): Promise<void>;
}

/**
 * The deployment the OAuth acceptance tests need: identity-svc (real PostgreSQL and moto) behind
 * the edge gateway, whose origin is the issuer, and a minimal MCP resource server (test code, until
 * mcp-gateway lands) whose `/mcp` is the resource identity-svc issues tokens for.
 */
export async function startOAuthStack(prefix: string, options: { cimd?: CimdOptions } = {}): Promise<OAuthStack> {
  const [gatewayPort, mcpPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${gatewayPort}`;
  let skewMs = 0;
  const identity = await startHarness({
    prefix,
    issuer,
    oauthResources: [`http://127.0.0.1:${mcpPort}/mcp`],
    clock: () => new Date(Date.now() + skewMs),
    ...(options.cimd ? { cimd: options.cimd } : {}),
  });
  const identityServer = await serve(identity.app, {
    host: "127.0.0.1",
    port: 0,
    logger: createLogger({ service: "identity-svc" }),
    handleSignals: false,
    drainTimeoutMs: 1_000,
  });
  const many = 100_000;
  const gateway = await startGateway({
    identityUrl: identityServer.url,
    secret: identity.secret,
    port: gatewayPort,
    settings: {
      JWT_ISSUER: issuer,
      JWT_AUDIENCE: "flowstate-test",
      RATE_LIMIT_ANONYMOUS_PER_SEC: many,
      RATE_LIMIT_ANONYMOUS_BURST: many,
      RATE_LIMIT_CREDENTIAL_PER_SEC: many,
      RATE_LIMIT_CREDENTIAL_BURST: many,
    },
  });
  const mcp = await startMcpResourceServer({
    port: mcpPort,
    issuer,
    identityUrl: identityServer.url,
    secret: identity.secret,
    now: () => Date.now() + skewMs,
  });
  return {
    identity,
    issuer,
    gateway,
    mcp,
    skew: (ms) => {
      skewMs = ms;
    },
    async close() {
      await mcp.close();
      await gateway.close();
      await identityServer.shutdown("test done");
      await identity.close();
    },
  };
}
