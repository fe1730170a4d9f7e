import { DEFAULT_PRINCIPAL_KEYS_ENV } from "@flowstate/seller-sandbox/credentials/principals";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import type { TestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { createApp } from "../app.ts";
import { OffersConfig } from "../config.ts";
import type { OffersDeps } from "../deps.ts";
import { buildDeps } from "../deps-factory.ts";
import { startTracker, type Tracker } from "../tracker/tracker.ts";
import { openOffersTestDatabase } from "./test-database.ts";

export interface RunningOffers {
  url: string;
  deps: OffersDeps;
  db: TestDatabase;
  /** Stops this instance (HTTP, tracker, sessions) and starts a new one on the same schema and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * offers-svc as main.ts wires it (connector lookup to connector-svc, seller sessions on the
 * sandbox with the sandbox's principal keys, the tracker), on an ephemeral port and a throwaway
 * schema, for tests that put it behind the gateway (`startMarketplaceStack({ services })`,
 * edge-gateway's e2e stack). `reached` collects `METHOD /path` of what a gateway relayed to it.
 *
 * @example
 * const offers = await startOffersService({ prefix: "e2e", secret, connectorUrl, marketplaceEndpoint: sandbox.endpoint });
 */
export async function startOffersService(options: {
  prefix: string;
  secret: string;
  connectorUrl: string;
  marketplaceEndpoint: string;
  reached?: string[];
  env?: Record<string, string>;
  logTo?: NodeJS.WritableStream;
  /** identity-svc's URL: writes re-check credentials there for real; without it every signed one counts as live. */
  identityUrl?: string;
}): Promise<RunningOffers> {
  const { logger, db } = await openOffersTestDatabase(options.prefix, options.logTo);
  const config = OffersConfig.parse({
    DATABASE_URL: db.url,
    CONNECTOR_URL: options.connectorUrl,
    // Unused without identityUrl (credentialsAsSigned below); the variable is required.
    IDENTITY_URL: options.identityUrl ?? "http://127.0.0.1:9",
    CONNECTOR_CACHE_SECONDS: "1",
    TRACKER_IDLE_MS: "100",
    ...DEFAULT_PRINCIPAL_KEYS_ENV,
    ...options.env,
  });
  const aws = createAwsClients({
    endpoint: process.env.AWS_ENDPOINT_URL,
    marketplaceEndpoint: options.marketplaceEndpoint,
  });
  let port = 0;
  const start = async () => {
    let tracker: Tracker | undefined;
    const deps = buildDeps({
      config,
      orm: db.orm,
      logger,
      aws,
      // Keys per caller derived from the same test secret as connector-svc's (ADR 0014).
      callerKeys: testKeyring("offers-svc", options.secret),
      wakeTracker: () => tracker?.wake(),
      ...(options.identityUrl ? {} : { credentials: credentialsAsSigned }),
    });
    const app = createApp(deps, { checkResponses: true });
    tracker = startTracker(deps, { idleMs: config.TRACKER_IDLE_MS });
    const server = await serve(
      {
        fetch: (request: Request, env?: unknown) => {
          if (request.headers.has("x-forwarded-for"))
            options.reached?.push(`${request.method} ${new URL(request.url).pathname}`);
          return app.fetch(request, env as never);
        },
      },
      { host: "127.0.0.1", port, logger, handleSignals: false, drainTimeoutMs: 1_000 },
    );
    port = server.port;
    return {
      deps,
      url: server.url,
      async stop() {
        await server.shutdown("test done");
        await tracker?.stop();
        deps.close();
      },
    };
  };
  let current = await start();
  const running: RunningOffers = {
    url: current.url,
    get deps() {
      return current.deps;
    },
    db,
    async restart() {
      await current.stop();
      current = await start();
    },
    async close() {
      await current.stop();
      await db.close();
    },
  };
  return running;
}
