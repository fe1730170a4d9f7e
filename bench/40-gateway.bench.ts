/**
 * (issues 4, 15) The REST front door's cost, edge-gateway → identity-svc, both started as `npm start`
 * starts them (`node src/main.ts`, own processes, stdout to /dev/null), against Hono's bare hello
 * world, measured alternately in the same run (5 rounds of 4 s, each after a warm-up that also
 * fills the gateway's caches; the order rotates per round), medians reported. Two workloads:
 * - one user hammering GET /v1/tenants/{id} of one tenant (the path at its cheapest: every cache
 *   hot, identity-svc's in-flight read sharing at its best);
 * - mixed: 2,000 users in 500 tenants (an owner, an admin, two members each, created before the
 *   rounds through the gateway's public routes: sign-up, sign-in, tenant, invitations accepted),
 *   random tenant routes as random users, reads and writes 9:1 (writes rename the tenant or set a
 *   feature flag, each a transaction with its outbox event, published to moto by the relay).
 * Also: identity-svc alone (a signed assertion, no gateway hop) for calibration, and CPU time per
 * request of each process over the windows (gateway, identity-svc, PostgreSQL's backends of the bench
 * database, moto, the load generator). The rate limits are raised (one address and, in the first
 * workload, one account generate everything) but still counted; nothing is answered from a cache.
 * Targets (issue 26), same-run ratios against the two-hop floor (Hono proxy -> Hono service -> one
 * prepared read): the mixed run at >= 50% of the floor's rate with p99 <= 2x the floor's, and its
 * CPU per request (all Flowstate servers) <= 2x the one-user run's. Bare Hono stays as calibration,
 * and so does the floor's own mix (floorWorkload: the same 9:1 shape over rows of its own, a write
 * being BEGIN, lock, change with its outbox row, COMMIT), with the floor's CPU per request measured
 * like Flowstate's: what the mix costs any design on this machine.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { bodyless, IDENTITY_HEADER, MAX_SKEW_MS } from "@flowstate/shared/auth/identity-assertion";
import { gatewaySign, Keyring, PairSecret } from "@flowstate/shared/auth/keyring";
import { keyPairSecretName } from "@flowstate/shared/boot/keyring-loader";
import { decodeJwt } from "jose";
import { freePort } from "../deploy/local/ports.ts";
import { floorWorkload } from "./lib/floor-world.ts";
import { type Cpu, gatewayRows, type Kind, type Measured, noCpu } from "./lib/gateway-rows.ts";
import { type LoadGroup, type LoadResult, measureHttp } from "./lib/load.ts";
import {
  benchBackends,
  cpuMs,
  monotonicUs,
  post,
  psqlLines,
  readCpuSafe,
  startService,
  waitHealthy,
  writeCalls,
  writeProfileWindows,
} from "./lib/processes.ts";
import { startServerProcess } from "./lib/servers.ts";
import {
  benchAws,
  benchDatabase,
  benchServiceEnv,
  settleDatabase,
  unlimitedAnonymousEnv,
  unlimitedRatesEnv,
} from "./lib/setup.ts";
import { mixedWorkload, populate } from "./lib/tenant-world.ts";
import type { BenchRow } from "./lib/types.ts";

const CONNECTIONS = 32;
const ROUNDS = 5;
const DURATION_MS = 4000;
/** BENCH_MIXED_TENANTS: fewer tenants for a quick look (a profile); the row names the figures used. */
const TENANTS = Number(process.env.BENCH_MIXED_TENANTS ?? 500);
/**
 * BENCH_READS_PER_WRITE: the mix's reads per write (9), to take it apart: a very large figure is a
 * mix of reads alone, which tells what the writes (and the events, pushes and consumers they set
 * off) cost the mixed rows. The row names the figure used.
 */
const READS_PER_WRITE = Number(process.env.BENCH_READS_PER_WRITE ?? 9);
const USERS_PER_TENANT = 4;
export default async function gatewayBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const { moto, aws, prefix, stage, outputs } = await benchAws();
  const [identityPort, gatewayPort] = [await freePort(), await freePort()];
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const env: NodeJS.ProcessEnv = {
    ...benchServiceEnv({ moto, outputs, prefix, stage }, databaseUrl, "info"),
    IDENTITY_URL: identityUrl,
    // One account hammers one tenant in the first workload, and every sign-up and sign-in of the
    // mixed set-up comes from one address: the limits would be the bottleneck (they are still counted).
    ...unlimitedRatesEnv,
    ...unlimitedAnonymousEnv,
  };
  const identity = startService("identity-svc", { ...env, PORT: String(identityPort) });
  const gateway = startService("edge-gateway", { ...env, PORT: String(gatewayPort), METRICS_PORT: "0" });
  const bare = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
  const floorScript = new URL("./lib/servers/two-hop-floor.ts", import.meta.url);
  const floorService = await startServerProcess(floorScript, ["service", databaseUrl], { FLOOR_KEYS: String(TENANTS) });
  const floorProxy = await startServerProcess(floorScript, ["proxy", floorService.url]);
  try {
    await Promise.all([waitHealthy(identityUrl), waitHealthy(gatewayUrl)]);
    process.stderr.write(`bench: creating ${TENANTS * USERS_PER_TENANT} users in ${TENANTS} tenants…\n`);
    const world = await populate(gatewayUrl, TENANTS, USERS_PER_TENANT);
    const { signUp, tenants, signIn, total } = world.seconds;
    const phases = `sign-up ${signUp.toFixed(0)} s, tenants and members ${tenants.toFixed(0)} s, sign-in ${signIn.toFixed(0)} s`;
    process.stderr.write(`bench: set-up took ${total.toFixed(1)} s (${phases})\n`);
    await world.refresh();
    await world.visit();
    // The set-up leaves thousands of events (sign-ups, sign-ins, invitations) in identity-svc's
    // outbox; the rounds start once its relay has published them, so they measure the workload
    // and not the set-up's tail.
    const drained = await outboxDrained(databaseUrl);
    process.stderr.write(`bench: identity-svc's outbox published ${drained.events} events in ${drained.seconds} s\n`);
    await settleDatabase(databaseUrl);
    const mix = mixedWorkload(world, READS_PER_WRITE);
    const floorMix = floorWorkload(TENANTS, READS_PER_WRITE);

    const email = `bench-${randomUUID()}@example.test`;
    const password = `pw-${randomUUID()}`;
    await post(`${gatewayUrl}/v1/auth/signup`, { email, password, name: "Bench" });
    const { access_token: token } = await post(`${gatewayUrl}/v1/auth/signin`, { email, password });
    const tenant = await post(`${gatewayUrl}/v1/tenants`, { name: "Bench" }, token);
    const path = `/v1/tenants/${tenant.id}`;
    const claims = decodeJwt(token!);
    // The door's key for identity-svc, as the bootstrap stored it (ADR 0014).
    const pairId = "gateway--identity-svc";
    const pair = PairSecret.parse(
      JSON.parse(
        (
          await aws
            .data("secretsmanager")
            .send(new GetSecretValueCommand({ SecretId: keyPairSecretName(prefix, stage, pairId) }))
        ).SecretString!,
      ),
    );
    const doorKeys = new Keyring("edge-gateway", new Map([[pairId, pair]]));
    // The service alone: what the gateway would send, signed just before each run. An assertion is
    // valid MAX_SKEW_MS (5 s) either side of its timestamp; dating it half a window ahead covers a
    // 4 s run plus the load generator's start-up.
    const direct = () => ({
      [IDENTITY_HEADER]: gatewaySign(
        doorKeys,
        "identity-svc",
        bodyless("GET", path),
        {
          identity: { kind: "user", sub: claims.sub!, sid: claims.sid as string },
          tenant: { tenant_id: tenant.id!, role: "owner" },
        },
        Date.now() + MAX_SKEW_MS / 2,
      ),
    });

    const targets: Record<Kind, { url: string; headers?: () => Record<string, string>; mix?: LoadGroup[] }> = {
      bare: { url: `${bare.url}/healthz` },
      floor: { url: `${floorProxy.url}${path}`, headers: () => ({ authorization: `Bearer ${token}` }) },
      gateway: { url: `${gatewayUrl}${path}`, headers: () => ({ authorization: `Bearer ${token}` }) },
      direct: { url: `${identityUrl}${path}`, headers: direct },
      mixed: { url: gatewayUrl, mix },
      floorMixed: { url: floorProxy.url, mix: floorMix },
    };
    const runs: Record<Kind, LoadResult[]> = {
      bare: [],
      floor: [],
      gateway: [],
      direct: [],
      mixed: [],
      floorMixed: [],
    };
    const roundCpu: Record<Measured, Cpu[]> = { floor: [], floorMixed: [], gateway: [], mixed: [] };
    const order: Kind[] = ["bare", "floor", "gateway", "direct", "mixed", "floorMixed"];
    const moto_ = moto.process.pid!;
    const flowstatePids = { gateway: gateway.pid!, identity: identity.pid!, moto: moto_ };
    const floorPids = { gateway: floorProxy.pid, identity: floorService.pid, moto: moto_ };
    // With BENCH_CPU_PROF, the measured windows go beside the profiles (bench/lib/profile-summary.ts reads them).
    const windows: { kind: Kind; startUs: number; endUs: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another kind, so no kind always runs right after the same other one.
      for (const kind of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
        const { url, headers, mix } = targets[kind];
        const load = { url, mix, connections: CONNECTIONS };
        await measureHttp({ ...load, headers: headers?.(), durationMs: round === 0 ? 3000 : 500 });
        if (kind === "bare" || kind === "direct") {
          runs[kind].push(await measureHttp({ ...load, headers: headers?.(), durationMs: DURATION_MS }));
          continue;
        }
        const pids = kind === "floor" || kind === "floorMixed" ? floorPids : flowstatePids;
        const pg = benchBackends(databaseUrl);
        const before = snapshot(pids, pg);
        const startUs = monotonicUs();
        const r = await measureHttp({ ...load, headers: headers?.(), durationMs: DURATION_MS });
        windows.push({ kind, startUs, endUs: monotonicUs() });
        const after = snapshot(pids, pg);
        const c = noCpu(); // this round's: the rows sum the rounds and also divide them one by one
        for (const k of ["gateway", "identity", "moto", "gatewayWrites", "identityWrites"] as const)
          c[k] += after[k] - before[k];
        // Per backend, and only backends alive at both ends: one that exits in the window is lost (an undercount).
        for (const [pid, ms] of before.postgres)
          if (after.postgres.has(pid)) c.postgres += after.postgres.get(pid)! - ms;
        c.generator += r.generatorCpu * DURATION_MS;
        c.requests += r.requests;
        roundCpu[kind].push(c);
        runs[kind].push(r);
      }
    }
    writeProfileWindows(windows, { "edge-gateway": gateway.pid, "identity-svc": identity.pid });
    for (const [kind, results] of Object.entries(runs)) {
      const bad = results.reduce((s, r) => s + r.errors + r.non2xx, 0);
      if (bad) throw new Error(`${kind}: ${bad} failed or non-2xx responses`);
    }
    return gatewayRows(
      { runs, roundCpu, setup: world.seconds },
      {
        connections: CONNECTIONS,
        rounds: ROUNDS,
        durationMs: DURATION_MS,
        tenants: TENANTS,
        usersPerTenant: USERS_PER_TENANT,
        readsPerWrite: READS_PER_WRITE,
      },
    );
  } finally {
    await stopAll([gateway, identity]);
    await Promise.all([bare, floorProxy, floorService].map((s) => s.stop()));
    await moto.stop();
  }
}

/** Waits (at most 5 min) until identity-svc's outbox has nothing left to publish. */
async function outboxDrained(databaseUrl: string): Promise<{ events: number; seconds: string }> {
  const pending = () =>
    Number(psqlLines(databaseUrl, "SELECT count(*) FROM identity.outbox_event WHERE sent_at IS NULL")[0]);
  const [started, events] = [performance.now(), pending()];
  while (pending() > 0) {
    if (performance.now() - started > 300_000) throw new Error("identity-svc's outbox did not drain in 5 min");
    await new Promise((r) => setTimeout(r, 500));
  }
  return { events, seconds: ((performance.now() - started) / 1000).toFixed(1) };
}

function snapshot(pids: { gateway: number; identity: number; moto: number }, pg: number[]) {
  const postgres = new Map<number, number>();
  for (const pid of pg) {
    const ms = readCpuSafe(pid);
    if (ms !== undefined) postgres.set(pid, ms);
  }
  return {
    gateway: cpuMs(pids.gateway),
    identity: cpuMs(pids.identity),
    moto: cpuMs(pids.moto),
    postgres,
    gatewayWrites: writeCalls(pids.gateway),
    identityWrites: writeCalls(pids.identity),
  };
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
}
