/**
 * (issue 25) The agreement watch on the whole local stack, started exactly as `npm start` starts it
 * (launchStack), with TENANTS tenants onboarded the way a seller does it (flag on, the onboarding
 * bundle's CloudFormation template deployed into a seller account of the emulator, POST connect;
 * offers-svc enrolls each from its ConnectorConnected). Nothing reads the agreements list during the
 * window: every call counted is the watch's own. What is counted comes from the seller sandbox's
 * per-account call counters (`GET /_sandbox/accounts/{id}` → `calls`), sampled every SAMPLE_MS.
 *
 * - SearchAgreements pages per tenant per interval: for each tenant, the pages between its first
 *   and its last page seen in the window over the time between them (no fence post: the window's
 *   first sample is only the count it starts from), in intervals
 *   of AGREEMENT_WATCH_INTERVAL_SECONDS. The row is the highest over the tenants; target at most 1.
 *   The closest two pages of any tenant are printed beside it: a sampling figure, as a page is
 *   seen when a round of reads of every account returns (on a loaded machine a round can take
 *   most of a second), so a late-seen page makes the next gap look short; the rate is not affected.
 * - AssumeRole calls per credential lifetime: at a third and at two thirds of the window every
 *   seller's clock passes the session's hour (AWS answers ExpiredToken from then on), so two new
 *   lifetimes of the watch's session begin in the window (the first began before it, at the
 *   tenant's first poll). The row is the highest AssumeRole count per tenant over the window divided
 *   by those two; target 1. (The counter is the account's: connector-svc's own AssumeRole at connect
 *   falls before the window, nothing else calls during it.)
 */
import { setTimeout as sleep } from "node:timers/promises";
import { launchStack } from "../deploy/local/stack-process.ts";
import { benchDatabase, call, connectedSandboxSeller, unlimitedAnonymousEnv, unlimitedRatesEnv } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const TENANTS = 6;
const INTERVAL_SECONDS = 2;
const WINDOW_INTERVALS = 16;
const SAMPLE_MS = 100;

const callsOf = async (control: string) => ((await call("GET", control)).calls ?? {}) as Record<string, number>;

export default async function agreementWatchBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const stack = await launchStack(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      AGREEMENT_WATCH_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
      // Several sign-ups from one address, one account per tenant: no limit is the subject here.
      ...unlimitedRatesEnv,
      ...unlimitedAnonymousEnv,
    },
    240_000,
  );
  try {
    const gw = stack.services["edge-gateway"]!.url;
    const sandbox = stack.services["seller-sandbox"]!.url;
    process.env.AWS_ENDPOINT_URL = stack.awsEndpoint;

    const controls: string[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const { seller } = await connectedSandboxSeller(gw, sandbox, `Bench ${i}`);
      controls.push(seller.control);
    }

    // Every tenant polled at least once (enrolled from its ConnectorConnected), then the window.
    const deadline = Date.now() + 60_000;
    while ((await Promise.all(controls.map(callsOf))).some((c) => !c.SearchAgreements)) {
      if (Date.now() > deadline) throw new Error("a tenant was never polled");
      await sleep(200);
    }
    const start = await Promise.all(controls.map(callsOf));
    const seen: { at: number; pages: number }[][] = controls.map(() => []);
    const windowMs = WINDOW_INTERVALS * INTERVAL_SECONDS * 1000;
    const began = Date.now();
    const PASSES = 2;
    let passes = 0;
    while (Date.now() - began < windowMs) {
      if (passes < PASSES && Date.now() - began >= ((passes + 1) * windowMs) / (PASSES + 1)) {
        // The watch's session outlives its hour on AWS's side: the next call is ExpiredToken.
        for (const control of controls) {
          await call("PUT", `${control}/clock`, undefined, { advanceSeconds: 3700 });
        }
        passes++;
      }
      const now = await Promise.all(controls.map(callsOf));
      const at = Date.now();
      now.forEach((c, i) => {
        const pages = c.SearchAgreements ?? 0;
        const list = seen[i]!;
        if (list.at(-1)?.pages !== pages) list.push({ at, pages });
      });
      await sleep(SAMPLE_MS);
    }
    const end = await Promise.all(controls.map(callsOf));

    const intervalMs = INTERVAL_SECONDS * 1000;
    // list[0] is the window's first sample (the count it starts from), not a page: pages are list[1..].
    const pagesSeen = seen.map((list) => list.slice(1));
    const rates = pagesSeen.map((list) => {
      const first = list[0]!;
      const last = list.at(-1)!;
      return (last.pages - first.pages) / ((last.at - first.at) / intervalMs);
    });
    const gaps = pagesSeen.flatMap((list) => list.slice(1).map((x, i) => (x.at - list[i]!.at) / intervalMs));
    const assumes = end.map((c, i) => (c.AssumeRole ?? 0) - (start[i]!.AssumeRole ?? 0));
    const pagesTotal = end.reduce((n, c, i) => n + (c.SearchAgreements ?? 0) - (start[i]!.SearchAgreements ?? 0), 0);
    const worstRate = Math.max(...rates);
    const perLifetime = Math.max(...assumes) / PASSES;
    process.stderr.write(
      `  pages per interval by tenant ${rates.map((r) => r.toFixed(3)).join(", ")}; closest pages ${Math.min(...gaps).toFixed(2)} intervals apart; AssumeRole by tenant ${assumes.join(", ")}\n`,
    );
    return [
      {
        name: `offers-svc agreement watch: SearchAgreements pages per tenant per interval (worst of ${TENANTS} tenants, ${WINDOW_INTERVALS} intervals of ${INTERVAL_SECONDS} s; ${pagesTotal} pages; closest two ${Math.min(...gaps).toFixed(2)} intervals apart)`,
        value: Math.round(worstRate * 1000) / 1000,
        unit: "pages/interval",
        target: "<= 1",
        met: worstRate <= 1,
      },
      {
        name: `offers-svc agreement watch: AssumeRole calls per credential lifetime (worst of ${TENANTS} tenants, the seller's clock passes the hour twice: 2 lifetimes begun in the window)`,
        value: perLifetime,
        unit: "calls/lifetime",
        target: "1",
        met: perLifetime === 1,
      },
    ];
  } finally {
    await stack.stop();
  }
}
