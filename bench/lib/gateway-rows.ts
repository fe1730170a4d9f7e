/**
 * The rows of bench/40-gateway.bench.ts from what its rounds measured: rates, p99s and CPU per
 * request of each workload, the floor's, and issue 26's targets as same-run ratios. Apart from the
 * bench so that file keeps to starting, loading and measuring.
 */
import type { LoadResult } from "./load.ts";
import { median } from "./median.ts";
import type { BenchRow } from "./types.ts";

export type Kind = "bare" | "floor" | "gateway" | "direct" | "mixed" | "floorMixed";
export type Measured = "floor" | "floorMixed" | "gateway" | "mixed";
/** CPU ms over a workload's windows. For the floor's kinds, `gateway` is its proxy and `identity` its service. */
export interface Cpu {
  gateway: number;
  identity: number;
  postgres: number;
  moto: number;
  generator: number;
  requests: number;
  /** write(2)/writev(2) calls of the gateway (proxy) and identity-svc (service): each a wake-up of a peer. */
  gatewayWrites: number;
  identityWrites: number;
}

/** The run's shape, named in the rows. */
export interface GatewayShape {
  connections: number;
  rounds: number;
  durationMs: number;
  tenants: number;
  usersPerTenant: number;
  readsPerWrite: number;
}

export interface GatewayMeasurements {
  runs: Record<Kind, LoadResult[]>;
  /** Each round's CPU, one entry per round (the rows sum them, and divide round by round). */
  roundCpu: Record<Measured, Cpu[]>;
  setup: { total: number };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** A window's CPU before anything is counted. */
export const noCpu = (): Cpu => ({
  gateway: 0,
  identity: 0,
  postgres: 0,
  moto: 0,
  generator: 0,
  requests: 0,
  gatewayWrites: 0,
  identityWrites: 0,
});

const summed = (rounds: readonly Cpu[]): Cpu => {
  const total = noCpu();
  for (const c of rounds) for (const k of Object.keys(total) as (keyof Cpu)[]) total[k] += c[k];
  return total;
};

/** CPU ms of the Flowstate servers (gateway, identity-svc, PostgreSQL's bench backends) over a workload's windows. */
const serverCpu = (c: Cpu) => c.gateway + c.identity + c.postgres;

export function gatewayRows(m: GatewayMeasurements, shape: GatewayShape): BenchRow[] {
  const { runs, roundCpu, setup } = m;
  const cpu: Record<Measured, Cpu> = {
    floor: summed(roundCpu.floor),
    floorMixed: summed(roundCpu.floorMixed),
    gateway: summed(roundCpu.gateway),
    mixed: summed(roundCpu.mixed),
  };
  const { connections: CONNECTIONS, rounds: ROUNDS, durationMs: DURATION_MS, tenants: TENANTS } = shape;
  const { usersPerTenant: USERS_PER_TENANT, readsPerWrite: READS_PER_WRITE } = shape;
  const rps = (k: Kind) => median(runs[k].map((r) => r.rps));
  const bareRps = rps("bare");
  const baseline = { name: "bare Hono hello world", value: Math.round(bareRps) };
  const p99 = (k: Kind) => median(runs[k].map((r) => r.p99Ms));
  const group = (name: string) => median(runs.mixed.map((r) => r.groups?.find((g) => g.name === name)?.p99Ms ?? 0));
  // The best round's rate, against the same median baseline (a single low bare Hono run would flatter it).
  const best = [...runs.gateway].sort((a, b) => b.rps - a.rps)[0]!;
  const windows = `${CONNECTIONS} conns, median of ${ROUNDS} x ${DURATION_MS / 1000} s`;
  const single = `edge-gateway -> identity-svc GET /v1/tenants/{id}, one user (${windows})`;
  const mixed = `edge-gateway -> identity-svc mixed: ${TENANTS * USERS_PER_TENANT} users in ${TENANTS} tenants, random tenant routes, reads:writes ${READS_PER_WRITE}:1 (${windows})`;
  const floorRps = rps("floor");
  const floor = { name: "the two-hop floor, same run", value: Math.round(floorRps) };
  const floorP99 = p99("floor");
  // Issue 26's targets are same-run ratios against the floor (Hono proxy -> Hono service -> one
  // prepared read): what this machine can do with two hops and a database read, nothing of Flowstate's.
  const headline = (name: string, k: Measured): BenchRow[] => [
    {
      name,
      value: Math.round(rps(k)),
      unit: "req/s",
      baseline: floor,
      ratio: rps(k) / floorRps,
      ...(k === "mixed" ? { target: ">= 50% of the floor", met: rps(k) / floorRps >= 0.5 } : {}),
    },
    {
      name: `${name} p99`,
      value: round1(p99(k)),
      unit: "ms",
      baseline: { name: "floor p99", value: round1(floorP99) },
      ratio: p99(k) / floorP99,
      ...(k === "mixed" ? { target: "<= 2x the floor's p99", met: p99(k) <= 2 * floorP99 } : {}),
    },
  ];
  const what: Record<Measured, string> = {
    gateway: "one-user request",
    mixed: "mixed request",
    floor: "floor request (one read)",
    floorMixed: "floor mixed request",
  };
  const perRequest = (k: Measured, label: string, ms: number): BenchRow => ({
    name: `CPU per ${what[k]}: ${label}`,
    value: round1((ms * 1000) / cpu[k].requests),
    unit: "µs CPU/req",
  });
  const cpuRows = (k: Measured): BenchRow[] => {
    const c = cpu[k];
    const servers = serverCpu(c);
    const floorKind = k === "floor" || k === "floorMixed";
    return [
      perRequest(k, floorKind ? "the floor's proxy" : "edge-gateway", c.gateway),
      perRequest(k, floorKind ? "the floor's service" : "identity-svc", c.identity),
      perRequest(k, "PostgreSQL (the bench database's backends)", c.postgres),
      perRequest(k, "all server processes", servers),
      perRequest(k, "load generator", c.generator),
      ...(k === "mixed"
        ? [perRequest(k, "moto (the relay's PutEvents; EventBridge is remote in production)", c.moto)]
        : []),
      perRequest(k, "all processes (servers + load generator)", servers + c.generator),
      ...(
        [
          [floorKind ? "the floor's proxy" : "edge-gateway", c.gatewayWrites],
          [floorKind ? "the floor's service" : "identity-svc", c.identityWrites],
        ] as const
      ).map(([label, n]) => ({
        name: `write syscalls per ${what[k]}: ${label}`,
        value: round1(n / c.requests),
        unit: "calls/req",
      })),
    ];
  };
  const perReq = (k: Measured) => serverCpu(cpu[k]) / cpu[k].requests;
  // The mixed shape at the floor (floorWorkload): what its writes cost any design, so the mixed
  // targets can be read against what the floor itself does with the same mix. Calibration: no target.
  const floorMixRows = (): BenchRow[] => [
    {
      name: `floor mixed: Hono proxy -> Hono service, ${TENANTS} rows, reads:writes ${READS_PER_WRITE}:1 (a read: one prepared read; a write: BEGIN, lock, change with its outbox row, COMMIT)`,
      value: Math.round(rps("floorMixed")),
      unit: "req/s",
      baseline: floor,
      ratio: rps("floorMixed") / floorRps,
    },
    { name: "floor mixed p99", value: round1(p99("floorMixed")), unit: "ms" },
    ...cpuRows("floor"),
    ...cpuRows("floorMixed"),
    {
      name: "the floor's CPU per request: its mix against its one read",
      value: round1(1000 * perReq("floorMixed")),
      unit: "µs CPU/req",
      baseline: { name: "floor, one read", value: round1(1000 * perReq("floor")) },
      ratio: perReq("floorMixed") / perReq("floor"),
    },
    {
      name: "CPU per mixed request, all server processes: Flowstate's against the floor's mix",
      value: round1(1000 * perReq("mixed")),
      unit: "µs CPU/req",
      baseline: { name: "floor mixed", value: round1(1000 * perReq("floorMixed")) },
      ratio: perReq("mixed") / perReq("floorMixed"),
    },
    {
      name: "mixed rate: Flowstate's against the floor's mix",
      value: Math.round(rps("mixed")),
      unit: "req/s",
      baseline: { name: "floor mixed", value: Math.round(rps("floorMixed")) },
      ratio: rps("mixed") / rps("floorMixed"),
    },
  ];
  return [
    ...headline(single, "gateway"),
    {
      name: `best round: one user (p99 ${best.p99Ms.toFixed(1)} ms)`,
      value: Math.round(best.rps),
      unit: "req/s",
      baseline,
      ratio: best.rps / bareRps,
    },
    {
      name: "identity-svc alone, signed assertion, no gateway (calibration)",
      value: Math.round(rps("direct")),
      unit: "req/s",
      baseline,
      ratio: rps("direct") / bareRps,
    },
    ...cpuRows("gateway"),
    ...headline(mixed, "mixed"),
    {
      name: "floor for both: Hono proxy -> Hono service -> one indexed pg read, nothing of Flowstate's",
      value: Math.round(rps("floor")),
      unit: "req/s",
      baseline,
      ratio: rps("floor") / bareRps,
    },
    { name: "floor p99", value: round1(p99("floor")), unit: "ms" },
    { name: "mixed: p99 of the reads", value: round1(group("reads")), unit: "ms" },
    { name: "mixed: p99 of the writes", value: round1(group("writes")), unit: "ms" },
    ...cpuRows("mixed"),
    {
      name: "CPU per request, all server processes: mixed against one user",
      value: round1((1000 * serverCpu(cpu.mixed)) / cpu.mixed.requests),
      unit: "µs CPU/req",
      baseline: { name: "one user", value: round1((1000 * serverCpu(cpu.gateway)) / cpu.gateway.requests) },
      ratio: serverCpu(cpu.mixed) / cpu.mixed.requests / (serverCpu(cpu.gateway) / cpu.gateway.requests),
      target: "<= 2x one user's",
      met: serverCpu(cpu.mixed) / cpu.mixed.requests <= (2 * serverCpu(cpu.gateway)) / cpu.gateway.requests,
    },
    roundByRound(roundCpu),
    ...floorMixRows(),
    {
      name: `mixed set-up: ${TENANTS * USERS_PER_TENANT} sign-ups and sign-ins (Argon2 each), ${TENANTS} tenants, invitations sent and accepted, through the gateway, 8 in flight`,
      value: round1(setup.total),
      unit: "s",
    },
  ];
}

/**
 * The row above pools the rounds; this one divides each round's mixed CPU per request by the same
 * round's one-user figure and gives their median and range. The one-user figure is the one that
 * moves (32 connections sending one request share statements and assertions as the timing allows:
 * 241-300 µs in three runs of one hour whose mixed figure stayed within 867-884), so the range says
 * how much of a run's ratio is that. Calibration: no target.
 */
function roundByRound(roundCpu: Record<Measured, Cpu[]>): BenchRow {
  const perRequest = (c: Cpu) => serverCpu(c) / c.requests;
  const ratios = roundCpu.mixed.map((c, i) => perRequest(c) / perRequest(roundCpu.gateway[i]!));
  const oneUser = roundCpu.gateway.map((c) => Math.round(1000 * perRequest(c)));
  const range = (xs: number[], digits: number) =>
    `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
  return {
    name: `CPU per request, mixed against one user, round by round: median of ${ratios.length} rounds' ratios (range ${range(ratios, 2)}x; one user ${range(oneUser, 0)} µs)`,
    value: Math.round(median(ratios) * 100) / 100,
    unit: "x",
  };
}
