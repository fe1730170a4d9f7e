/**
 * The seller-account sandbox must never be the bottleneck of the project's benchmarks (issue 3):
 * ListEntities requests per second with warm assumed-role credentials, target at least 2,000 on
 * this machine.
 *
 * The sandbox runs as its own process, exactly as `npm start` runs it, against moto (started here
 * unless AWS_ENDPOINT_URL points at one) with the connector role deployed from the project's
 * CloudFormation template. The load is one ListEntities request signed once with the AWS SDK's
 * own SigV4 signer and replayed by measureHttp: the sandbox verifies the signature, checks the
 * session and evaluates the role's policy on every request, as it does for the SDK. A second row
 * drives the real @aws-sdk/client-marketplace-catalog from this process, which spends far more
 * CPU per request than the sandbox does, so it shows the client's limit rather than the server's.
 */
import { randomUUID } from "node:crypto";
import { ListEntitiesCommand, MarketplaceCatalogClient } from "@aws-sdk/client-marketplace-catalog";
import { principalArn } from "@flowstate/seller-sandbox/credentials/principals";
import { assumeConnector } from "@flowstate/seller-sandbox/testing/clients";
import { deployConnectorStack } from "../deploy/connector-role/deploy.ts";
import { motoSellerAccount } from "../deploy/connector-role/moto-account.ts";
import { type Moto, startMoto } from "../deploy/local/moto.ts";
import { measureHttp } from "./lib/load.ts";
import { median } from "./lib/median.ts";
import { startServerProcess } from "./lib/servers.ts";
import { signedListEntities } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const CONNECTIONS = 32;
const ROUNDS = 3;
const SDK_IN_FLIGHT = 16;
const listInput = { Catalog: "AWSMarketplace", EntityType: "Offer", MaxResults: 20 };

async function sdkRate(client: MarketplaceCatalogClient, ms: number): Promise<number> {
  let done = 0;
  const end = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < end) {
      await client.send(new ListEntitiesCommand(listInput));
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: SDK_IN_FLIGHT }, loop));
  return done / ((performance.now() - started) / 1000);
}

export default async function sandboxBench(): Promise<BenchRow[]> {
  let moto: Moto | undefined;
  if (!process.env.AWS_ENDPOINT_URL) {
    moto = await startMoto();
    process.env.AWS_ENDPOINT_URL = moto.endpoint;
  }
  const endpoint = process.env.AWS_ENDPOINT_URL;
  const server = await startServerProcess(
    new URL("../services/seller-sandbox/src/testing/bench-server.ts", import.meta.url),
    [],
    { AWS_ENDPOINT_URL: endpoint, LOG_LEVEL: "warn" },
  );
  try {
    const seller = await motoSellerAccount(endpoint);
    const names = { flowstateAccountId: "123456789012", prefix: "flowstate", stage: "dev" };
    const externalId = randomUUID();
    const roleArn = await deployConnectorStack({
      cloudformation: seller.cloudformation,
      stackName: "flowstate-marketplace-connector",
      principalArns: [principalArn(names, "backend"), principalArn(names, "mcp-execution")],
      externalId,
    });
    const credentials = await assumeConnector(server.url, "backend", roleArn, externalId);
    const { headers, body } = await signedListEntities(server.url, credentials, listInput);
    const load = { url: `${server.url}/ListEntities`, method: "POST", headers, body, connections: CONNECTIONS };

    await measureHttp({ ...load, durationMs: 1500 });
    const rates: number[] = [];
    const cpus: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = await server.cpuMicros();
      const r = await measureHttp({ ...load, durationMs: 2000 });
      cpus.push(((await server.cpuMicros()) - cpuBefore) / r.requests);
      if (r.errors || r.non2xx) throw new Error(`ListEntities: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
      process.stderr.write(
        `  ListEntities: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms.toFixed(1)} ms, load generator CPU ${(r.generatorCpu * 100).toFixed(0)}%\n`,
      );
      rates.push(r.rps);
    }
    const client = new MarketplaceCatalogClient({ region: "us-east-1", endpoint: server.url, credentials });
    await sdkRate(client, 1000);
    const sdk = await sdkRate(client, 2000);
    client.destroy();
    const rps = median(rates);
    return [
      {
        name: `seller-sandbox ListEntities, SigV4 + session + policy checked (${CONNECTIONS} conns, median of ${ROUNDS})`,
        value: Math.round(rps),
        unit: "req/s",
        target: ">= 2000 req/s",
        met: rps >= 2000,
      },
      { name: "seller-sandbox server CPU per ListEntities", value: Math.round(median(cpus)), unit: "µs CPU/req" },
      {
        name: `seller-sandbox ListEntities through the real SDK client (${SDK_IN_FLIGHT} in flight, client-bound)`,
        value: Math.round(sdk),
        unit: "req/s",
        baseline: { name: "signed replay", value: Math.round(rps) },
        ratio: sdk / rps,
      },
    ];
  } finally {
    await server.stop();
    await moto?.stop();
  }
}
