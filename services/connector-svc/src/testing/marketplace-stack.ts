import { randomBytes } from "node:crypto";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { createPipeline as createGateway, GatewayConfig, type GatewaySettings } from "@flowstate/edge-gateway/pipeline";
import { unlimitedRates } from "@flowstate/edge-gateway/testing/gateway-harness";
import { startHarness } from "@flowstate/identity-svc/testing/harness";
import { type RunningSandbox, startSandbox } from "@flowstate/seller-sandbox/testing/start-sandbox";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import type { ConnectorDeps, ConnectorSettings } from "../deps.ts";
import { startConnectorService } from "./connector-service.ts";
import { type Account, type Answer, type CallOptions, gatewayCaller } from "./gateway-caller.ts";
import { type SellerAccount, sellerAccount } from "./seller-account.ts";

export type { Account, Answer, CallOptions } from "./gateway-caller.ts";

type ServiceName = RouteSpec["service"];

export interface MarketplaceStackOptions {
  /** Prefix of the throwaway database schemas. */
  prefix: string;
  connector?: Partial<ConnectorSettings>;
  gateway?: Partial<GatewaySettings>;
  /**
   * More services behind the gateway (offers-svc, …), started once the stack's assertion key and
   * URLs are known; return their base URLs by service name.
   */
  services?: (stack: StackBasics) => Promise<Partial<Record<ServiceName, string>>>;
}

export interface StackBasics {
  /** The gateway-to-service assertion key. */
  secret: string;
  connectorUrl: string;
  identityUrl: string;
  /** The seller sandbox: `MARKETPLACE_ENDPOINT_URL` for other services' seller sessions. */
  sandbox: RunningSandbox;
}

export interface ConnectedTenant {
  tenantId: string;
  owner: Account;
  externalId: string;
  roleArn: string;
  seller: SellerAccount;
}

export interface MarketplaceStack extends StackBasics {
  gatewayUrl: string;
  connector: ConnectorDeps;
  /** `METHOD /path` of every request that reached connector-svc (what the gateway let through). */
  reached: string[];
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  signUp(): Promise<Account>;
  /** A fresh tenant and its owner; `marketplace_offers` on unless `flag: false`. */
  tenant(options?: { flag?: boolean }): Promise<{ tenantId: string; owner: Account }>;
  /**
   * The whole onboarding of interface.md §5.3 through the gateway: a tenant with the flag on, the
   * external ID and principals from the onboarding bundle, the project's CloudFormation template
   * deployed into a fresh seller account of the emulator, then POST connect.
   */
  connectedTenant(options?: Parameters<typeof sellerAccount>[1]): Promise<ConnectedTenant>;
  close(): Promise<void>;
}

/**
 * Everything a marketplace test needs, in process, on ephemeral ports: identity-svc (own schema),
 * connector-svc (own schema, a KMS key of its own in the emulator), the seller sandbox, and the
 * real edge-gateway in front, all sharing one assertion key. Tests talk to the gateway only.
 * Other services' tests (offers-svc, mcp-gateway) import it from
 * `@flowstate/connector-svc/testing/marketplace-stack` and put their own app behind the gateway
 * with `services`.
 *
 * @example
 * const stack = await startMarketplaceStack({ prefix: "offers" });
 * const t = await stack.connectedTenant();
 * await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace/products`, { token: t.owner.token });
 */
export async function startMarketplaceStack(options: MarketplaceStackOptions): Promise<MarketplaceStack> {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint)
    throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator (run tests with scripts/test.ts)");
  const closers: (() => Promise<unknown> | unknown)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const sandbox = await startSandbox();
    closers.push(() => sandbox.stop());
    const identity = await startHarness({ prefix: `${options.prefix}_id` });
    closers.push(() => identity.close());
    const secret = identity.secret;
    const quiet = { handleSignals: false, drainTimeoutMs: 1_000, host: "127.0.0.1", port: 0 };
    const identityServer = await serve(identity.app, { ...quiet, logger: createLogger({ service: "identity-svc" }) });
    closers.push(() => identityServer.shutdown("test done"));

    const reached: string[] = [];
    const running = await startConnectorService({
      prefix: `${options.prefix}_cn`,
      secret,
      marketplaceEndpoint: sandbox.endpoint,
      reached,
      identityUrl: identityServer.url,
      ...(options.connector ? { settings: options.connector } : {}),
    });
    closers.push(() => running.close());
    const connector = running.deps;
    const connectorServer = running;

    const basics: StackBasics = { secret, connectorUrl: connectorServer.url, identityUrl: identityServer.url, sandbox };
    const more = (await options.services?.(basics)) ?? {};
    const gatewayLogger = createLogger({ service: "edge-gateway" });
    const gateway = createGateway({
      config: {
        ...GatewayConfig.parse({ IDENTITY_URL: identityServer.url }),
        CONNECTOR_URL: connectorServer.url,
        OFFERS_URL: more["offers-svc"],
        PRIVACY_URL: more["privacy-svc"],
        AUDIT_URL: more["audit-svc"],
        JWT_ISSUER: "https://identity.test",
        JWT_AUDIENCE: "flowstate-test",
        ...unlimitedRates,
        ...options.gateway,
      },
      logger: gatewayLogger,
      callerKeys: testKeyring("edge-gateway", secret),
    });
    closers.push(() => gateway.close());
    const gatewayServer = await serve(gateway, { ...quiet, logger: gatewayLogger });
    closers.push(() => gatewayServer.shutdown("test done"));
    connector.settings.templateUrl =
      options.connector?.templateUrl ?? `${gatewayServer.url}/v1/marketplace/connector-role/template.json`;

    const caller = gatewayCaller(gatewayServer.url);
    const stack: MarketplaceStack = {
      ...basics,
      gatewayUrl: gatewayServer.url,
      connector,
      reached,
      call: caller.call,
      signUp: caller.signUp,
      async tenant({ flag = true } = {}) {
        const owner = await caller.signUp();
        const created = await caller.expect("POST", "/v1/tenants", 201, {
          token: owner.token,
          body: { name: "Seller" },
        });
        const tenantId = created.json.id as string;
        if (flag) {
          await caller.expect("PUT", `/v1/tenants/${tenantId}/features`, 200, {
            token: owner.token,
            body: { marketplace_offers: true },
          });
        }
        return { tenantId, owner };
      },
      async connectedTenant(sellerOptions = {}) {
        const { tenantId, owner } = await stack.tenant();
        const seller = await sellerAccount(stack, sellerOptions, { tenantId, token: owner.token });
        await caller.expect("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, 200, {
          token: owner.token,
          body: { role_arn: seller.roleArn },
        });
        return { tenantId, owner, externalId: seller.externalId, roleArn: seller.roleArn, seller };
      },
      close,
    };
    return stack;
  } catch (err) {
    await close();
    throw err;
  }
}

/** A random tenant id of Flowstate's shape, for "missing" tenants in tests. */
export const randomTenantId = () => `tnt_${randomBytes(12).toString("hex")}`;
