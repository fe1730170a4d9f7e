/**
 * (issue 8) connector-svc's cost, with the seller sandbox, identity-svc, connector-svc and
 * edge-gateway started as `npm start` starts them (own processes, stdout to /dev/null), against
 * moto with the bootstrap applied and a seller account onboarded through the gateway exactly as a
 * tenant does (the bundle's CloudFormation parameters, then POST connect). Three rows:
 *
 * 1. AssumeRole calls into the seller's account per 1,000 product listings of one tenant, counted
 *    by connector-svc's own `seller_assume_role_total` from before connect to after the last
 *    listing (target 2: the session opened by connect's verification serves every listing; the
 *    other call is connect's deliberate AssumeRole with a wrong external ID, which must be refused,
 *    issue 20).
 * 2. Product listing through the gateway with warm credentials, p50 with one request in flight,
 *    against the sandbox's own ListEntities p50 for the same request (signed once with the same
 *    kind of session credentials, replayed), the two alternating request by request: the
 *    difference is Flowstate's overhead (gateway hop, assertion, connector row, SDK). Target < 2 ms.
 * 3. Connector status through the gateway against GET /v1/tenants/{id}, 32 connections,
 *    alternating rounds, medians (target at least 80% of its rate).
 */
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { DEFAULT_PRINCIPAL_KEYS, DEFAULT_PRINCIPAL_KEYS_ENV } from "@flowstate/seller-sandbox/credentials/principals";
import { freePort } from "../deploy/local/ports.ts";
import { type LoadOptions, type LoadResult, measureHttp } from "./lib/load.ts";
import { median } from "./lib/median.ts";
import { counterValue } from "./lib/metrics.ts";
import { monotonicUs, startService, waitHealthy, writeProfileWindows } from "./lib/processes.ts";
import {
  benchAws,
  benchDatabase,
  benchServiceEnv,
  call,
  onboardSeller,
  signedListEntities as signListEntities,
  unlimitedRatesEnv,
} from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const LISTINGS = 1000;
const ROUNDS = 3;
const CONNECTIONS = 32;
const PAIRS = 1500;
const WARMUP_PAIRS = 300;

const assumeRoleCalls = (connectorUrl: string) => counterValue(`${connectorUrl}/metrics`, "seller_assume_role_total");

/** The same ListEntities connector-svc sends for `?limit=20`, signed once with an assumed session. */
async function assumedListEntities(sandboxUrl: string, roleArn: string, externalId: string) {
  const sts = new STSClient({ region: "us-east-1", endpoint: sandboxUrl, credentials: DEFAULT_PRINCIPAL_KEYS.backend });
  const { Credentials: c } = await sts.send(
    new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: "bench", ExternalId: externalId }),
  );
  const credentials = {
    accessKeyId: c!.AccessKeyId!,
    secretAccessKey: c!.SecretAccessKey!,
    sessionToken: c!.SessionToken,
  };
  return signListEntities(sandboxUrl, credentials, {
    Catalog: "AWSMarketplace",
    EntityType: "SaaSProduct",
    MaxResults: 20,
  });
}

export default async function connectorBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const { moto, prefix, stage, outputs } = await benchAws();
  const ports = {
    sandbox: await freePort(),
    identity: await freePort(),
    connector: await freePort(),
    gateway: await freePort(),
  };
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const [sandboxUrl, identityUrl, connectorUrl, gatewayUrl] = [
    ports.sandbox,
    ports.identity,
    ports.connector,
    ports.gateway,
  ].map(url) as [string, string, string, string];
  const env: NodeJS.ProcessEnv = {
    ...benchServiceEnv({ moto, outputs, prefix, stage }, databaseUrl),
    MARKETPLACE_ENDPOINT_URL: sandboxUrl,
    IDENTITY_URL: identityUrl,
    CONNECTOR_URL: connectorUrl,
    EDGE_GATEWAY_URL: gatewayUrl,
    ...DEFAULT_PRINCIPAL_KEYS_ENV,
    ...unlimitedRatesEnv,
  };
  const children = [
    startService("seller-sandbox", { ...env, PORT: String(ports.sandbox) }),
    startService("identity-svc", { ...env, PORT: String(ports.identity) }),
    startService("connector-svc", { ...env, PORT: String(ports.connector) }),
  ];
  try {
    await Promise.all([sandboxUrl, identityUrl, connectorUrl].map(waitHealthy));
    children.push(startService("edge-gateway", { ...env, PORT: String(ports.gateway), METRICS_PORT: "0" }));
    await waitHealthy(gatewayUrl);

    // A tenant onboarded as a seller would: flag on, bundle, stack from its parameters, connect.
    const { token, tenant, roleArn, externalId } = await onboardSeller(gatewayUrl, moto.endpoint);
    const before = await assumeRoleCalls(connectorUrl);
    await call("POST", `${tenant}/integrations/marketplace`, token, { role_arn: roleArn });

    // 1. AssumeRole per 1,000 listings (8 in flight).
    const products = `${tenant}/integrations/marketplace/products?limit=20`;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < LISTINGS) await call("GET", products, token);
      }),
    );
    const assumed = (await assumeRoleCalls(connectorUrl)) - before;

    // 2. Latency at one request in flight: sandbox and gateway requests alternate one by one, so
    // both see the same machine (on a shared, loaded host, separate windows measured the load).
    const auth = { authorization: `Bearer ${token}` };
    const direct = await assumedListEntities(sandboxUrl, roleArn, externalId);
    const timed = async (input: string, init: RequestInit) => {
      const started = performance.now();
      const res = await fetch(input, init);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${input}: ${res.status}`);
      return performance.now() - started;
    };
    const sandboxCall = () =>
      timed(`${sandboxUrl}/ListEntities`, { method: "POST", headers: direct.headers, body: direct.body });
    const gatewayCall = () => timed(products, { headers: auth });
    const sandboxMs: number[] = [];
    const gatewayMs: number[] = [];
    // With BENCH_CPU_PROF, the pairs' window goes beside the profiles: `node bench/lib/profile-summary.ts <dir> pairs`.
    let startUs = 0;
    for (let i = 0; i < PAIRS + WARMUP_PAIRS; i++) {
      if (i === WARMUP_PAIRS) startUs = monotonicUs();
      const [first, second] = i % 2 ? [sandboxCall, gatewayCall] : [gatewayCall, sandboxCall];
      const a = await first();
      const b = await second();
      if (i < WARMUP_PAIRS) continue;
      (first === sandboxCall ? sandboxMs : gatewayMs).push(a);
      (second === sandboxCall ? sandboxMs : gatewayMs).push(b);
    }
    writeProfileWindows([{ kind: "pairs", startUs, endUs: monotonicUs() }], {
      "seller-sandbox": children[0]!.pid,
      "identity-svc": children[1]!.pid,
      "connector-svc": children[2]!.pid,
      "edge-gateway": children[3]!.pid,
    });
    const load = (o: Omit<LoadOptions, "durationMs">) => measureHttp({ durationMs: 3000, warmupMs: 1000, ...o });
    const check = (r: LoadResult, what: string) => {
      if (r.errors || r.non2xx) throw new Error(`${what}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      return r;
    };

    // 3. Status vs GET /v1/tenants/{id}, 32 connections, alternating.
    const statusRps: number[] = [];
    const tenantRps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [
        async () =>
          statusRps.push(
            check(
              await load({ url: `${tenant}/integrations/marketplace`, connections: CONNECTIONS, headers: auth }),
              "status",
            ).rps,
          ),
        async () =>
          tenantRps.push(check(await load({ url: tenant, connections: CONNECTIONS, headers: auth }), "tenant").rps),
      ];
      for (const run of round % 2 ? pair.reverse() : pair) await run();
    }

    const overhead = median(gatewayMs) - median(sandboxMs);
    const status = median(statusRps);
    const tenantRate = median(tenantRps);
    return [
      {
        name: `connector-svc: AssumeRole calls per ${LISTINGS} product listings of one tenant (connect included)`,
        value: assumed,
        unit: "calls",
        target: "2",
        met: assumed <= 2,
      },
      {
        name: "GET …/products through the gateway, warm credentials: p50 overhead over the sandbox's ListEntities (1 in flight)",
        value: Math.round(overhead * 100) / 100,
        unit: "ms",
        baseline: {
          name: "sandbox ListEntities p50 (1 in flight, alternating)",
          value: Math.round(median(sandboxMs) * 100) / 100,
        },
        target: "< 2 ms",
        met: overhead < 2,
      },
      {
        name: `GET …/integrations/marketplace (status) through the gateway (${CONNECTIONS} conns)`,
        value: Math.round(status),
        unit: "req/s",
        baseline: { name: "GET /v1/tenants/{id} through the gateway", value: Math.round(tenantRate) },
        ratio: status / tenantRate,
        target: ">= 80% of GET /v1/tenants/{id}",
        met: status / tenantRate >= 0.8,
      },
    ];
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await moto.stop();
  }
}
