import { CreateKeyCommand } from "@aws-sdk/client-kms";
import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { createApp } from "../app.ts";
import { entities } from "../db/entities.ts";
import { migrations } from "../db/migrations.ts";
import type { ConnectorDeps, ConnectorSettings } from "../deps.ts";
import { buildDeps } from "../deps-factory.ts";

export interface RunningConnector {
  url: string;
  deps: ConnectorDeps;
  close(): Promise<void>;
}

/**
 * connector-svc's createApp on an ephemeral port, as main.ts runs it but with a throwaway schema,
 * a KMS key of its own in the emulator and the sandbox's principal keys. `reached` (optional)
 * collects `METHOD /path` of every request a gateway relayed to it. `settings.templateUrl` may be set
 * after start (the gateway's URL is known later): the deps hold the same object.
 *
 * @example
 * const connector = await startConnectorService({ prefix: "gw", secret, marketplaceEndpoint: sandbox.endpoint });
 */
export async function startConnectorService(options: {
  prefix: string;
  secret: string;
  marketplaceEndpoint: string;
  settings?: Partial<ConnectorSettings>;
  reached?: string[];
  /** identity-svc's URL: writes re-check credentials there for real; without it every signed one counts as live. */
  identityUrl?: string;
}): Promise<RunningConnector> {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint)
    throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator (run tests with scripts/test.ts)");
  const logger = createLogger({ service: "connector-svc" });
  const db = await openTestDatabase({ prefix: options.prefix, entities, migrations, logger });
  const aws = createAwsClients({ endpoint, marketplaceEndpoint: options.marketplaceEndpoint });
  const key = await aws.data("kms").send(new CreateKeyCommand({ Description: `test ${db.schema}` }));
  const deps = buildDeps({
    orm: db.orm,
    logger,
    aws,
    // Keys per caller derived from the same test secret, as every test harness does (ADR 0014).
    callerKeys: testKeyring("connector-svc", options.secret),
    credentials: options.identityUrl
      ? remoteCredentials({
          identityUrl: options.identityUrl,
          sign: serviceSigner(testKeyring("connector-svc", options.secret), "identity-svc"),
        })
      : credentialsAsSigned,
    kmsKeyId: key.KeyMetadata!.KeyId!,
    principals: DEFAULT_PRINCIPAL_KEYS,
    settings: {
      flowstateAccountId: "123456789012",
      prefix: "flowstate",
      stage: "dev",
      principals: ["backend", "mcp-execution"],
      templateUrl: "http://127.0.0.1/unset",
      terraformModuleSource: "flowstate/marketplace-connector/aws",
      terraformModuleVersion: "2.0.0",
      healthCacheMs: 0,
      ...options.settings,
    },
  });
  const app = createApp(deps, { checkResponses: true });
  const reached = options.reached;
  const server = await serve(
    {
      fetch: (request: Request, env?: unknown) => {
        const path = new URL(request.url).pathname;
        // Relayed calls carry the caller's address (as in edge-gateway's e2e stack).
        if (request.headers.has("x-forwarded-for") && !path.startsWith("/internal/")) {
          reached?.push(`${request.method} ${path}`);
        }
        return app.fetch(request, env as never);
      },
    },
    { host: "127.0.0.1", port: 0, logger, handleSignals: false, drainTimeoutMs: 1_000 },
  );
  return {
    url: server.url,
    deps,
    async close() {
      await server.shutdown("test done");
      deps.sessions.close();
      await db.close();
    },
  };
}
