import { startConnectorService } from "@flowstate/connector-svc/testing/connector-service";
import { gatewayCaller } from "@flowstate/connector-svc/testing/gateway-caller";
import { createPipeline as createRestGateway, GatewayConfig } from "@flowstate/edge-gateway/pipeline";
import { unlimitedRates } from "@flowstate/edge-gateway/testing/gateway-harness";
import { type Harness, startHarness } from "@flowstate/identity-svc/testing/harness";
import { startNotifySvc } from "@flowstate/notify-svc/testing/harness";
import { startOffersService } from "@flowstate/offers-svc/testing/offers-service";
import { startPrivacyHarness } from "@flowstate/privacy-svc/testing/harness";
import { startSandbox } from "@flowstate/seller-sandbox/testing/start-sandbox";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { freePort } from "../../../deploy/local/ports.ts";
import { createMcpApp } from "../src/app.ts";
import type { ToolCallRecord } from "../src/audit.ts";
import { startPipeline } from "../src/pipeline.ts";

/**
 * The deployment MCP clients meet: identity-svc (real PostgreSQL and moto), connector-svc and
 * offers-svc with the seller sandbox (which enforces trust policies, so the mcp-execution principal
 * is really used), privacy-svc (exports bucket, key and SES on moto), the REST edge gateway whose
 * origin is the OAuth issuer, and mcp-gateway (its pipeline and MCP endpoint) whose `/mcp` is the
 * resource identity-svc issues tokens for. `skew` moves identity-svc's clock (tokens it issues then
 * expire earlier, as seen by both gateways).
 */
export async function startMcpStack(prefix: string) {
  const [restPort, mcpPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${restPort}`;
  const resource = `http://127.0.0.1:${mcpPort}/mcp`;
  let skewMs = 0;
  const identity: Harness = await startHarness({
    prefix,
    issuer,
    oauthResources: [resource],
    clock: () => new Date(Date.now() + skewMs),
  });
  const logger = createLogger({ service: "mcp-test" });
  const quiet = { logger, handleSignals: false, drainTimeoutMs: 1_000, host: "127.0.0.1" } as const;
  const identityServer = await serve(identity.app, { ...quiet, port: 0 });
  const sandbox = await startSandbox();
  const connector = await startConnectorService({
    prefix: `${prefix}_cn`,
    secret: identity.secret,
    marketplaceEndpoint: sandbox.endpoint,
    settings: { templateUrl: `${issuer}/v1/marketplace/connector-role/template.json` },
    identityUrl: identityServer.url,
  });
  const offers = await startOffersService({
    prefix: `${prefix}_of`,
    secret: identity.secret,
    connectorUrl: connector.url,
    marketplaceEndpoint: sandbox.endpoint,
    identityUrl: identityServer.url,
  });
  const privacy = await startPrivacyHarness({
    prefix: `${prefix}_pv`,
    secret: identity.secret,
    participantUrls: { "identity-svc": identityServer.url },
  });
  const privacyServer = await serve(privacy.app, { ...quiet, port: 0 });
  // notify-svc (issue 25), its writes re-checked at the real identity-svc; loopback receivers allowed.
  const notify = await startNotifySvc({
    prefix: `${prefix}_nt`,
    secret: identity.secret,
    identityUrl: identityServer.url,
  });
  const config = {
    ...GatewayConfig.parse({ IDENTITY_URL: identityServer.url }),
    CONNECTOR_URL: connector.url,
    OFFERS_URL: offers.url,
    PRIVACY_URL: privacyServer.url,
    NOTIFY_URL: notify.url,
    JWT_ISSUER: issuer,
    ...unlimitedRates,
  };
  const rest = createRestGateway({
    config: { ...config, JWT_AUDIENCE: "flowstate-test" },
    logger,
    callerKeys: testKeyring("edge-gateway", identity.secret),
  });
  const restServer = await serve(rest, { ...quiet, port: restPort });
  const pipeline = startPipeline({
    config,
    resource,
    // The door signs with keys per caller, as main.ts does (ADR 0014); every service here holds its pair.
    callerKeys: testKeyring("mcp-gateway", identity.secret),
    logger,
  });
  // The calls whose audit records would be published (audit.ts's publisher is tested against the bus on its own).
  const audited: ToolCallRecord[] = [];
  const audit = { record: (call: ToolCallRecord) => void audited.push(call) };
  const principalPrefix = `${config.SERVICE_PREFIX}-${config.STAGE}`;
  const mcp = createMcpApp({
    pipeline,
    resource,
    issuer,
    allowedOrigins: [],
    logger,
    audit,
    principalPrefix,
  });
  const mcpServer = await serve(mcp, { ...quiet, port: mcpPort });
  return {
    identity,
    issuer,
    resource,
    rest,
    /** REST through the edge gateway, as the web app calls it (sign-up, tenants, the same operations). */
    restCaller: gatewayCaller(issuer),
    sandbox,
    offers,
    privacy,
    notify,
    /** `<prefix>-<stage>` of Flowstate's principal roles. */
    principalPrefix,
    pipeline,
    audited,
    /** Moves identity-svc's clock by `ms` (negative: tokens issued now expire `ms` earlier). */
    skew(ms: number) {
      skewMs = ms;
    },
    async close() {
      await mcpServer.shutdown("test done");
      await pipeline.close();
      await restServer.shutdown("test done");
      await rest.close();
      await privacyServer.shutdown("test done");
      await privacy.close();
      await notify.close();
      await offers.close();
      await connector.close();
      await sandbox.stop();
      await identityServer.shutdown("test done");
      await identity.close();
    },
  };
}
