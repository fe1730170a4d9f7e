import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { describe, it } from "vitest";
import { DEFAULT_PRINCIPAL_KEYS } from "../../../services/seller-sandbox/src/credentials/principals.ts";
import { connectorRole } from "../../../services/seller-sandbox/src/testing/connector-role.ts";
import { useSandbox } from "../../../services/seller-sandbox/src/testing/seller-fixture.ts";
import { createAwsClients } from "../aws/clients.ts";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { principalForChannel } from "./principals.ts";
import { AssumeRoleFailed, createSellerSessions, type SellerConnector } from "./seller-sessions.ts";

const listProducts = new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" });
const searchAgreements = new SearchAgreementsCommand({
  catalog: "AWSMarketplace",
  filters: [
    { name: "PartyType", values: ["Proposer"] },
    { name: "AgreementType", values: ["PurchaseAgreement"] },
  ],
});

describe("seller sessions", () => {
  const sandbox = useSandbox();
  const make = (options: { now?: () => number; logs?: ReturnType<typeof captureLogs> } = {}) =>
    createSellerSessions({
      aws: createAwsClients({ marketplaceEndpoint: sandbox.endpoint }),
      principals: DEFAULT_PRINCIPAL_KEYS,
      logger: createLogger({
        service: "test",
        level: "debug",
        ...(options.logs ? { destination: options.logs.stream } : {}),
      }),
      ...(options.now ? { now: options.now } : {}),
    });
  const connectorOf = async (trusted?: ("backend" | "mcp-execution")[]) => {
    const role = await connectorRole(trusted ? { trusted } : {});
    const connector: SellerConnector = { tenantId: `tnt_${role.accountId}abc`, ...role };
    return { role, connector };
  };

  it("assumes the role once for many calls and concurrent first calls, per tenant and principal", async () => {
    const sessions = make();
    const { role, connector } = await connectorOf();
    const first = await Promise.all(Array.from({ length: 20 }, () => sessions.clients(connector, "backend")));
    assert.equal(first[0]?.accountId, role.accountId);
    for (let i = 0; i < 30; i++) await (await sessions.clients(connector, "backend")).catalog.send(listProducts);
    assert.equal(sessions.stats().assumeRoleCalls, 1);
    await sessions.clients(connector, "mcp-execution");
    assert.equal(sessions.stats().assumeRoleCalls, 2);
    sessions.close();
  });

  it("renews the session shortly before it expires, and when the role or external ID changes", async () => {
    let clock = Date.now();
    const sessions = make({ now: () => clock });
    const { connector } = await connectorOf();
    await sessions.clients(connector, "backend");
    clock += 3600_000 - 300_001; // just inside the refresh margin
    await sessions.clients(connector, "backend");
    assert.equal(sessions.stats().assumeRoleCalls, 1);
    clock += 2;
    await sessions.clients(connector, "backend");
    assert.equal(sessions.stats().assumeRoleCalls, 2);
    const other = await connectorOf();
    const moved = await sessions.clients({ ...other.connector, tenantId: connector.tenantId }, "backend");
    assert.equal(moved.accountId, other.role.accountId);
    assert.equal(sessions.stats().assumeRoleCalls, 3);
    sessions.close();
  });

  it("uses the principal of the caller's channel: a role trusting only backend refuses MCP", async () => {
    const sessions = make();
    const { connector } = await connectorOf(["backend"]);
    await (await sessions.clients(connector, principalForChannel("rest"))).catalog.send(listProducts);
    const err = await sessions.clients(connector, principalForChannel("mcp")).catch((e: unknown) => e);
    assert.ok(err instanceof AssumeRoleFailed);
    assert.equal(err.failure.name, "AccessDenied");
    assert.equal(err.principal, "mcp-execution");
    assert.throws(() => principalForChannel(undefined));
    sessions.close();
  });

  it("forgets a tenant's sessions on drop, including one still being opened", async () => {
    const sessions = make();
    const { connector } = await connectorOf();
    await sessions.clients(connector, "backend");
    sessions.drop(connector.tenantId);
    const opening = sessions.clients(connector, "backend");
    sessions.drop(connector.tenantId);
    await opening;
    assert.equal(sessions.stats().cached, 0);
    await sessions.clients(connector, "backend");
    assert.equal(sessions.stats().assumeRoleCalls, 3);
    sessions.close();
  });

  it("retries throttling (STS and Catalog) and renews a session the seller's account calls expired", async () => {
    const sessions = make();
    const { role, connector } = await connectorOf();
    const control = `${sandbox.endpoint}/_sandbox/accounts/${role.accountId}`;
    const faults = (faults: object[]) =>
      fetch(`${control}/faults`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ faults }),
      });
    await faults([
      { kind: "throttle", operations: ["AssumeRole"], count: 2 },
      { kind: "throttle", operations: ["ListEntities"], count: 2 },
    ]);
    await sessions.withClients(connector, "backend", ({ catalog }) => catalog.send(listProducts));
    // The account's clock jumps two hours: the cached session is expired there, not here.
    await fetch(`${control}/clock`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advanceSeconds: 7200 }),
    });
    const out = await sessions.withClients(connector, "backend", ({ agreement }) => agreement.send(searchAgreements));
    assert.ok(out.agreementViewSummaries?.length);
    assert.equal(sessions.stats().assumeRoleCalls, 2);
    sessions.close();
  });

  it("probes the trust policy without an external ID or with a wrong one, caches neither, and never logs credentials", async () => {
    const logs = captureLogs();
    const sessions = make({ logs });
    const { connector } = await connectorOf();
    for (const externalId of [null, randomUUID()]) {
      const probe = await sessions.probe(connector, "backend", { externalId });
      assert.equal(probe.ok, false);
      assert.equal(!probe.ok && probe.failure.name, "AccessDenied");
    }
    assert.equal(sessions.stats().cached, 0);
    assert.equal((await sessions.probe(connector, "backend")).ok, true);
    const text = logs.text();
    assert.doesNotMatch(text, new RegExp(connector.externalId));
    assert.doesNotMatch(text, /ASIA[A-Z0-9]{12,}|SecretAccessKey|sessionToken/i);
    sessions.close();
  });
});
