/**
 * (issue 9) offers-svc on the whole local stack, started exactly as `npm start` starts it
 * (launchStack: moto, the bootstrap, the seller sandbox and every service in its own process),
 * with one tenant onboarded the way a seller does it (flag on, the onboarding bundle's
 * CloudFormation template deployed into a seller account of the emulator, POST connect).
 *
 * - Offer listing: GET .../offers through edge-gateway → offers-svc → the seller's ListEntities,
 *   against the same ListEntities request (as offers-svc sends it) signed with the tenant's
 *   assumed-role credentials straight to the sandbox, one connection each (latency, not
 *   throughput), alternating over 3 rounds. The row is the p50 difference; target under 3 ms.
 * - Change-set polls: 10 change sets submitted through the gateway while the seller's account
 *   takes 4 s per change-set step (AWS takes minutes), then each one's DescribeChangeSet count
 *   (offer_change.polls) against its life from submission to the poll that saw it end. The row is
 *   the highest polls per 2 s of life over the 10; target at most 1.
 */
import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { assumeConnector } from "@flowstate/seller-sandbox/testing/clients";
import { launchStack } from "../deploy/local/stack-process.ts";
import { measureHttp } from "./lib/load.ts";
import { median } from "./lib/median.ts";
import { benchDatabase, call, connectedSandboxSeller, signedListEntities, unlimitedRatesEnv } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const ROUNDS = 3;
const DURATION_MS = 3000;
const CHANGE_SETS = 10;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export default async function offersBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const stack = await launchStack(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      // One account hammers one tenant here: the limits would be the bottleneck, not the path.
      ...unlimitedRatesEnv,
    },
    90_000,
  );
  try {
    const gw = stack.services["edge-gateway"]!.url;
    const sandbox = stack.services["seller-sandbox"]!.url;
    process.env.AWS_ENDPOINT_URL = stack.awsEndpoint;

    const { token, tenantId, tenant, seller } = await connectedSandboxSeller(gw, sandbox);
    const M = `${tenant}/integrations/marketplace`;

    // Offer listing: the gateway path against the sandbox's own ListEntities, alternating.
    const credentials = await assumeConnector(sandbox, "backend", seller.roleArn, seller.externalId);
    const listInput = {
      Catalog: "AWSMarketplace",
      EntityType: "Offer",
      EntityTypeSort: { OfferSort: { SortBy: "LastModifiedDate", SortOrder: "DESCENDING" } },
      MaxResults: 20,
    };
    const direct = await signedListEntities(sandbox, credentials, listInput);
    const viaGateway = { url: `${M}/offers?limit=20`, headers: { authorization: `Bearer ${token}` }, connections: 1 };
    const viaSandbox = { url: `${sandbox}/ListEntities`, method: "POST", ...direct, connections: 1 };
    await measureHttp({ ...viaGateway, durationMs: 1500 });
    await measureHttp({ ...viaSandbox, durationMs: 1500 });
    const g: number[] = [];
    const s: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await measureHttp({ ...viaGateway, durationMs: DURATION_MS });
      const b = await measureHttp({ ...viaSandbox, durationMs: DURATION_MS });
      if (a.errors || a.non2xx || b.errors || b.non2xx) throw new Error("offer listing: errors or non-2xx answers");
      process.stderr.write(
        `  offers via gateway p50 ${a.p50Ms.toFixed(2)} ms, ListEntities p50 ${b.p50Ms.toFixed(2)} ms\n`,
      );
      g.push(a.p50Ms);
      s.push(b.p50Ms);
    }
    const overhead = median(g) - median(s);

    // Change-set polls over each change set's life, with AWS's steps slowed to 4 s.
    await call("PUT", `${seller.control}/timing`, undefined, { changeSetStepMs: 4000 });
    const products = (await call("GET", seller.control)).products as { id: string; visibility: string }[];
    const productId = products.find((p) => p.visibility === "Public")!.id;
    const ids: string[] = [];
    for (let i = 0; i < CHANGE_SETS; i++) {
      const handle = await call("POST", `${M}/offers`, token, {
        product_id: productId,
        name: `Bench offer ${i}`,
        description: "Bench",
        buyer_accounts: ["444455556666"],
        pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "BasicService" }] },
        legal_terms: { eula: { type: "standard" } },
        validity: { duration: "P12M" },
        availability_end_date: day(30),
      });
      ids.push(handle.change_set_id as string);
    }
    for (const id of ids) {
      for (;;) {
        const change = await call("GET", `${M}/changes/${id}`, token);
        if (["succeeded", "failed", "cancelled"].includes(change.status as string)) break;
        await sleep(500);
      }
    }
    const sql = `SELECT polls, extract(epoch FROM last_polled_at - submitted_at) AS life FROM offers.offer_change WHERE tenant_id = '${tenantId}'`;
    const rows = execFileSync("psql", [databaseUrl, "-tAc", sql, "-F", " "])
      .toString()
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number) as [number, number]);
    const perTwoSeconds = rows.map(([polls, life]) => polls / (life / 2));
    const worst = Math.max(...perTwoSeconds);
    const meanPolls = rows.reduce((n, [p]) => n + p, 0) / rows.length;
    const meanLife = rows.reduce((n, [, l]) => n + l, 0) / rows.length;
    return [
      {
        name: "offers-svc: GET .../offers through the gateway, p50 overhead over the sandbox's ListEntities (1 conn)",
        value: Math.round(overhead * 100) / 100,
        unit: "ms",
        baseline: { name: "ListEntities p50 (ms)", value: Math.round(median(s) * 100) / 100 },
        ratio: median(g) / median(s),
        target: "< 3 ms",
        met: overhead < 3,
      },
      {
        name: `offers-svc: DescribeChangeSet polls per 2 s of a change set's life (worst of ${rows.length}; mean ${meanPolls.toFixed(1)} polls over ${meanLife.toFixed(1)} s)`,
        value: Math.round(worst * 100) / 100,
        unit: "polls/2 s",
        target: "<= 1",
        met: worst <= 1,
      },
    ];
  } finally {
    await stack.stop();
  }
}
