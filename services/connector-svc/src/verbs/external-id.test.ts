import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createLogger } from "@flowstate/shared/log/logger";
import { CallContext } from "@flowstate/shared/seam/call-context";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { ServiceContext } from "../context.ts";
import type { ConnectorDeps } from "../deps.ts";
import { buildDeps } from "../deps-factory.ts";
import { type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";
import { getStatus } from "./get-status.ts";

describe("the external ID", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_extid" });
  });
  afterAll(() => stack.close());

  const ctxFor = (deps: ConnectorDeps, tenantId: string): ServiceContext =>
    new CallContext(
      "connector-svc",
      deps,
      {
        caller: { kind: "user", sub: "usr_0123456789abcdefghij", sid: "ses_0123456789abcdefghij" },
        tenant: { tenant_id: tenantId, role: "owner" },
        channel: "rest",
        logger: deps.logger,
      },
      deps.credentials,
    );

  it("is one value under 50 concurrent first reads through the gateway, and the same on every later read", async () => {
    const { tenantId, owner } = await stack.tenant();
    const path = `/v1/tenants/${tenantId}/integrations/marketplace`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => stack.call("GET", path, { token: owner.token })),
    );
    const values = new Set(answers.map((a) => a.json.external_id as string));
    assert.equal(values.size, 1);
    const [value] = values;
    recordSecret(value!);
    assert.match(value!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal((await stack.call("GET", path, { token: owner.token })).json.external_id, value);
  });

  it("is one value when two instances take the first reads at once (the database decides)", async () => {
    const other = buildDeps({
      orm: stack.connector.orm,
      logger: createLogger({ service: "connector-svc" }),
      aws: createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL, marketplaceEndpoint: stack.sandbox.endpoint }),
      credentials: credentialsAsSigned,
      callerKeys: stack.connector.callerKeys,
      kmsKeyId: stack.connector.kmsKeyId,
      principals: DEFAULT_PRINCIPAL_KEYS,
      settings: stack.connector.settings,
    });
    const tenantId = `tnt_${randomBytes(12).toString("hex")}`;
    const reads = Array.from({ length: 50 }, (_, i) =>
      getStatus({ ctx: ctxFor(i % 2 ? other : stack.connector, tenantId), tenantId }),
    );
    const values = new Set((await Promise.all(reads)).map((s) => s.external_id));
    assert.equal(values.size, 1);
    recordSecret([...values][0]!);
    other.sessions.close();
  });

  it("is sealed to its tenant: stored as ciphertext only, which does not open as another tenant's", async () => {
    const a = `tnt_${randomBytes(12).toString("hex")}`;
    const b = `tnt_${randomBytes(12).toString("hex")}`;
    const { external_id: externalId } = await getStatus({ ctx: ctxFor(stack.connector, a), tenantId: a });
    recordSecret(externalId);
    const { orm, schema, vault } = stack.connector;
    const rows = await orm.em.fork().execute<{ sealed: Buffer; clear: boolean }[]>(
      `SELECT external_id_enc AS sealed, position(convert_to(?, 'UTF8') in external_id_enc) > 0 AS clear
           FROM "${schema}".marketplace_connector WHERE tenant_id = ?`,
      [externalId, a],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.clear, false, "the database never holds the value in the clear");
    await assert.rejects(vault.open(b, rows[0]!.sealed));
  });
});
