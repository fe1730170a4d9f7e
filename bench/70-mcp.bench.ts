/**
 * (issue 13) mcp-gateway's cost against the REST door for the same operation, in one run: the
 * stack started as `npm start` starts it (own processes, stdout to /dev/null) against moto with the
 * bootstrap applied, a tenant connected to a seller account of the sandbox, and one tenant API key
 * (read) used on both doors. The operation is `get_marketplace_connector_status` over MCP (a
 * stateless `tools/call` POST to /mcp: new McpServer and transport, the pipeline hop) and
 * `GET …/integrations/marketplace` at the edge gateway. Not product listing: the sandbox throttles
 * ListEntities per seller account as AWS does, so at 32 connections both doors would measure the
 * throttle (and MCP answers a throttled call 200 with isError). Alternating rounds, medians.
 *
 * 1. p50 at one connection, MCP vs REST (target MCP at most 1.5× REST).
 * 2. Calls per second at 32 connections, MCP vs REST.
 * 3. CPU time per call of each process on the path (from /proc, over the measured windows): the
 *    door (mcp-gateway or edge-gateway), connector-svc, and moto (mcp-gateway's audit events;
 *    EventBridge is remote in production). On a loaded machine latency follows CPU time, which is
 *    the steadier figure; with 1 connection it includes waking each process per call.
 */
import { DEFAULT_PRINCIPAL_KEYS_ENV } from "@flowstate/seller-sandbox/credentials/principals";
import { freePort } from "../deploy/local/ports.ts";
import { type LoadOptions, type LoadResult, measureHttp } from "./lib/load.ts";
import { mcpRows } from "./lib/mcp-rows.ts";
import { counterValue, settledCounter } from "./lib/metrics.ts";
import { cpuMs, monotonicUs, startService, waitHealthy, writeProfileWindows } from "./lib/processes.ts";
import { type ServerProcess, startServerProcess } from "./lib/servers.ts";
import {
  benchAws,
  benchDatabase,
  benchServiceEnv,
  call,
  onboardSeller,
  settleDatabase,
  unlimitedAnonymousEnv,
  unlimitedRatesEnv,
} from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

/**
 * Seven alternating rounds (three until session 22): the addition row divides one difference of
 * medians by another, REST's being 0.1-0.4 ms, and over three rounds it read 0.92-2.80x in eight
 * runs of one day with nothing on its path changed; the median of seven rounds is steadier.
 */
const ROUNDS = 7;
const CONNECTIONS = 32;

export default async function mcpBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const { moto, prefix, stage, outputs } = await benchAws();
  const names = ["seller-sandbox", "identity-svc", "connector-svc", "edge-gateway", "mcp-gateway"] as const;
  const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()]))) as Record<
    (typeof names)[number],
    number
  >;
  const url = (n: (typeof names)[number]) => `http://127.0.0.1:${ports[n]}`;
  const env: NodeJS.ProcessEnv = {
    ...benchServiceEnv({ moto, outputs, prefix, stage }, databaseUrl),
    MARKETPLACE_ENDPOINT_URL: url("seller-sandbox"),
    IDENTITY_URL: url("identity-svc"),
    CONNECTOR_URL: url("connector-svc"),
    EDGE_GATEWAY_URL: url("edge-gateway"),
    JWT_ISSUER: url("edge-gateway"),
    ...DEFAULT_PRINCIPAL_KEYS_ENV,
    ...unlimitedRatesEnv,
    ...unlimitedAnonymousEnv,
  };
  const floors: ServerProcess[] = [];
  const children = names.slice(0, 3).map((n) => startService(n, { ...env, PORT: String(ports[n]) }));
  try {
    await Promise.all(names.slice(0, 3).map((n) => waitHealthy(url(n))));
    // The gateways' internal /metrics listeners on free ports (no clash with npm start's); mcp-gateway's
    // is read for its audit counters.
    const mcpMetrics = `http://127.0.0.1:${await freePort()}/metrics`;
    for (const n of names.slice(3))
      children.push(
        startService(n, {
          ...env,
          PORT: String(ports[n]),
          METRICS_PORT: n === "mcp-gateway" ? new URL(mcpMetrics).port : "0",
        }),
      );
    await Promise.all(names.slice(3).map((n) => waitHealthy(url(n))));

    // A tenant onboarded as a seller would, and a read key for both doors.
    const gateway = url("edge-gateway");
    const { token, tenant, roleArn } = await onboardSeller(gateway, moto.endpoint);
    await call("POST", `${tenant}/integrations/marketplace`, token, { role_arn: roleArn });
    const key = (await call("POST", `${tenant}/api-keys`, token, { name: "bench", scope: "read" })).secret as string;
    await settleDatabase(databaseUrl);

    const auth = { authorization: `Bearer ${key}` };
    const rest: Omit<LoadOptions, "connections" | "durationMs"> = {
      url: `${tenant}/integrations/marketplace`,
      headers: auth,
    };
    const mcp: Omit<LoadOptions, "connections" | "durationMs"> = {
      url: `${url("mcp-gateway")}/mcp`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_marketplace_connector_status", arguments: {} },
      }),
    };
    // The MCP answer is 200 even for a tool error: check a real result before and after the load.
    const probeMcp = async (o = mcp) => {
      const probe = await fetch(o.url, { method: "POST", headers: o.headers!, body: o.body! });
      const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
      if (!answer.result?.structuredContent || answer.result.isError) {
        throw new Error(`MCP probe: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    };
    await probeMcp();
    const restProbe = await fetch(rest.url, { headers: auth });
    if (!restProbe.ok) throw new Error(`REST probe: ${restProbe.status} ${(await restProbe.text()).slice(0, 300)}`);
    const check = async (r: LoadResult, what: string) => {
      if (r.errors || r.non2xx) {
        const statuses: Record<number, number> = {};
        for (let i = 0; i < 200; i++) {
          const res = await fetch(rest.url, { headers: auth });
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
        process.stderr.write(`REST statuses over 200 calls: ${JSON.stringify(statuses)}\n`);
        const now = await fetch(rest.url, { headers: auth });
        throw new Error(
          `${what}: ${r.errors} errors, ${r.non2xx} non-2xx (REST now ${now.status} ${await now.text()})`,
        );
      }
      return r;
    };
    // The doors' floor (lib/servers/door-floor.ts): the same call shape with nothing of Flowstate's,
    // one hop in front of a bare Hono upstream, measured in the same rounds.
    const upstream = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
    floors.push(upstream);
    const floor = await startServerProcess(new URL("./lib/servers/door-floor.ts", import.meta.url), [upstream.url]);
    floors.push(floor);
    const floorLoad = {
      mcp: {
        ...mcp,
        url: `${floor.url}/mcp`,
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_status" } }),
        connections: 1,
      },
      rest: { url: `${floor.url}/rest`, connections: 1 },
    };
    await probeMcp(floorLoad.mcp);
    const floorP50 = { mcp: [] as number[], rest: [] as number[] };
    const floorCpu = { mcp: { us: 0, calls: 0 }, rest: { us: 0, calls: 0 } };
    const measureFloor = async (door: "mcp" | "rest") => {
      await measureHttp({ ...floorLoad[door], durationMs: 1000 });
      const before = await floor.cpuMicros();
      const r = await check(await measureHttp({ ...floorLoad[door], durationMs: 3000 }), `floor ${door}`);
      floorCpu[door].us += (await floor.cpuMicros()) - before;
      floorCpu[door].calls += r.requests;
      floorP50[door].push(r.p50Ms);
    };
    const p50 = { mcp: [] as number[], rest: [] as number[] };
    const rps = { mcp: [] as number[], rest: [] as number[] };
    // CPU ms of each process over the measured windows, and the calls made in them, per door and connection count.
    const pids = {
      door: { mcp: children[4]!.pid!, rest: children[3]!.pid! },
      connector: children[2]!.pid!,
      moto: moto.process.pid!,
    };
    const zero = () => ({ door: 0, connector: 0, moto: 0, calls: 0 });
    // PutEvents requests mcp-gateway made for its audit records during the 32-connection MCP windows,
    // and the calls whose record the bus accepted for those windows once their last request went
    // (up to 50 calls per McpToolCallsRecorded event, ten events per request: ADR 0018).
    const audit = { putEvents: 0, calls: 0, published: 0 };
    const counters = () =>
      Promise.all(["mcp_audit_put_events_total", "mcp_audit_published_total"].map((n) => counterValue(mcpMetrics, n)));
    const cpu = { mcp: { one: zero(), many: zero() }, rest: { one: zero(), many: zero() } };
    // With BENCH_CPU_PROF, the measured windows go beside the profiles (bench/lib/profile-summary.ts
    // reads them): kinds mcp-one, mcp-many, rest-one, rest-many.
    const windows: { kind: string; startUs: number; endUs: number }[] = [];
    const measured = async (door: "mcp" | "rest", connections: number) => {
      const o = { ...(door === "mcp" ? mcp : rest), connections };
      const read = () => [cpuMs(pids.door[door]), cpuMs(pids.connector), cpuMs(pids.moto)] as const;
      await measureHttp({ ...o, durationMs: 1000 }); // warm-up (connections, JIT), outside the window
      const audited = door === "mcp" && connections > 1;
      // The warm-up's last, partial batch goes within the publisher's 200 ms timer, but moto may
      // take longer to accept it: the window starts once the accepted count has held for 300 ms
      // (a fixed 300 ms let a late warm-up batch land in the window: 8,270 events for 8,268 calls).
      if (audited) await settledCounter(mcpMetrics, "mcp_audit_published_total", 300);
      const [putEventsBefore = 0, publishedBefore = 0] = audited ? await counters() : [];
      const before = read();
      const startUs = monotonicUs();
      const r = await check(await measureHttp({ ...o, durationMs: 3000 }), `${door} ${connections}`);
      if (audited) {
        // PutEvents over the window itself, as the calls are counted; then, once the batches still
        // open at its end have gone (the 200 ms timer, or a backlog: up to 2 s), every call's event
        // record must have been accepted: a publisher falling behind would make fewer requests in
        // the window, and fail this.
        const [putEventsAfter = 0] = await counters();
        let publishedAfter = publishedBefore;
        for (const until = Date.now() + 2000; publishedAfter - publishedBefore < r.requests && Date.now() < until; ) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          [, publishedAfter = 0] = await counters();
        }
        if (publishedAfter - publishedBefore !== r.requests)
          process.stderr.write(`bench: ${publishedAfter - publishedBefore} audit records for ${r.requests} calls\n`);
        audit.putEvents += putEventsAfter - putEventsBefore;
        audit.published += publishedAfter - publishedBefore;
        audit.calls += r.requests;
      }
      windows.push({ kind: `${door}-${connections === 1 ? "one" : "many"}`, startUs, endUs: monotonicUs() });
      const after = read();
      const c = cpu[door][connections === 1 ? "one" : "many"];
      c.door += after[0] - before[0];
      c.connector += after[1] - before[1];
      c.moto += after[2] - before[2];
      c.calls += r.requests;
      return r;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [
        async () => {
          p50.mcp.push((await measured("mcp", 1)).p50Ms);
          rps.mcp.push((await measured("mcp", CONNECTIONS)).rps);
        },
        async () => {
          p50.rest.push((await measured("rest", 1)).p50Ms);
          rps.rest.push((await measured("rest", CONNECTIONS)).rps);
        },
      ];
      for (const run of round % 2 ? pair.reverse() : pair) await run();
      for (const door of round % 2 ? (["rest", "mcp"] as const) : (["mcp", "rest"] as const)) await measureFloor(door);
    }
    await probeMcp();
    writeProfileWindows(windows, {
      "mcp-gateway": pids.door.mcp,
      "edge-gateway": pids.door.rest,
      "connector-svc": pids.connector,
    });
    return mcpRows({ connections: CONNECTIONS, p50, rps, floorP50, floorCpu, cpu, audit });
  } finally {
    await Promise.all(floors.map((f) => f.stop()));
    for (const c of children) c.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await moto.stop();
  }
}
