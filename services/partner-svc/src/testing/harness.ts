import { testKeyring } from "@flowstate/shared/auth/keyring";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "../app.ts";
import { migrations } from "../db/migrations.ts";

/**
 * partner-svc's app on an ephemeral port with a throwaway schema, for the gateway's end-to-end
 * tests (same assertion key as the gateway). `close()` stops it and drops the schema.
 *
 * @example
 * const partner = await startPartnerSvc("gw_matrix", secret); // then PARTNER_URL: partner.url
 */
export async function startPartnerSvc(prefix: string, secret: string) {
  const db = await openTestDatabase({ prefix: `${prefix}_partner`, migrations });
  const logger = createLogger({ service: "partner-svc" });
  const app = createApp(
    // Keys per caller derived from the same test secret as every other harness (ADR 0014).
    {
      orm: db.orm,
      schema: db.schema,
      logger,
      callerKeys: testKeyring("partner-svc", secret),
    },
    { checkResponses: true },
  );
  const server = await serve(app, { host: "127.0.0.1", port: 0, logger, handleSignals: false, drainTimeoutMs: 1_000 });
  return {
    url: server.url,
    db,
    async close() {
      await server.shutdown("test done");
      await db.close();
    },
  };
}
