/**
 * The rows of bench/70-mcp.bench.ts from what its rounds measured: each door's p50 and rate, the
 * floors', issue 26's MCP targets as same-run ratios, the audit batching, and CPU per call of each
 * process. Apart from the bench so that file keeps to starting, loading and measuring.
 */
import { median } from "./median.ts";
import type { BenchRow } from "./types.ts";

type Door = "mcp" | "rest";

/** CPU ms of the processes on a door's path over its windows, and the calls they served. */
export type DoorCpu = { door: number; connector: number; moto: number; calls: number };

export interface McpMeasurements {
  connections: number;
  /** One entry per round: p50 at one connection, rate at `connections`. */
  p50: Record<Door, number[]>;
  rps: Record<Door, number[]>;
  /** The floors' p50 per round and their CPU (µs) over the calls they served. */
  floorP50: Record<Door, number[]>;
  floorCpu: Record<Door, { us: number; calls: number }>;
  cpu: Record<Door, { one: DoorCpu; many: DoorCpu }>;
  /** mcp-gateway's audit at `connections`: PutEvents requests, records the bus accepted, calls. */
  audit: { putEvents: number; published: number; calls: number };
}

export function mcpRows(m: McpMeasurements): BenchRow[] {
  const { connections: CONNECTIONS, p50, rps, floorP50, floorCpu, cpu, audit } = m;
  const [mcpP50, restP50, mcpRps, restRps] = [median(p50.mcp), median(p50.rest), median(rps.mcp), median(rps.rest)];
  const [floorMcp, floorRest] = [median(floorP50.mcp), median(floorP50.rest)];
  const ms2 = (x: number) => Math.round(x * 100) / 100;
  return [
    {
      name: "mcp-gateway: tools/call get_marketplace_connector_status p50 (1 conn, API key)",
      value: Math.round(mcpP50 * 100) / 100,
      unit: "ms",
      baseline: {
        name: "GET …/integrations/marketplace at the edge gateway p50",
        value: Math.round(restP50 * 100) / 100,
      },
      ratio: mcpP50 / restP50,
      target: "<= 1.5× REST",
      met: mcpP50 / restP50 <= 1.5,
    },
    {
      name: `mcp-gateway: tools/call get_marketplace_connector_status (${CONNECTIONS} conns)`,
      value: Math.round(mcpRps),
      unit: "calls/s",
      baseline: {
        name: `GET …/integrations/marketplace at the edge gateway (${CONNECTIONS} conns)`,
        value: Math.round(restRps),
      },
      ratio: mcpRps / restRps,
    },
    {
      name: "floor: MCP SDK per request, one tool relaying one hop, nothing of Flowstate's, p50 (1 conn)",
      value: ms2(floorMcp),
      unit: "ms",
      baseline: { name: "floor: Hono relaying the same hop p50", value: ms2(floorRest) },
      ratio: floorMcp / floorRest,
    },
    {
      // What the target leaves the MCP door over the REST door, against what the SDK alone takes.
      name: "floor: latency the MCP SDK adds per call (MCP floor - REST floor)",
      value: ms2(floorMcp - floorRest),
      unit: "ms",
      baseline: { name: "what 1.5× REST leaves for it (0.5 × REST p50)", value: ms2(restP50 / 2) },
      ratio: (floorMcp - floorRest) / (restP50 / 2),
    },
    {
      name: "floor: CPU per call, 1 conn: the MCP floor",
      value: Math.round(floorCpu.mcp.us / floorCpu.mcp.calls),
      unit: "µs CPU/call",
      baseline: { name: "the REST floor", value: Math.round(floorCpu.rest.us / floorCpu.rest.calls) },
      ratio: floorCpu.mcp.us / floorCpu.mcp.calls / (floorCpu.rest.us / floorCpu.rest.calls),
    },
    {
      // Issue 26: Flowstate's own share of each door's latency, beyond what its floor takes.
      name: "what Flowstate adds on MCP beyond the MCP floor, p50 (1 conn)",
      value: ms2(mcpP50 - floorMcp),
      unit: "ms",
      baseline: { name: "what it adds on REST beyond the REST floor", value: ms2(restP50 - floorRest) },
      ratio: (mcpP50 - floorMcp) / (restP50 - floorRest),
      target: "<= 1.5x REST's",
      met: (mcpP50 - floorMcp) / (restP50 - floorRest) <= 1.5,
    },
    {
      name: "CPU per call, 1 conn: mcp-gateway against the MCP floor + edge-gateway",
      value: Math.round((cpu.mcp.one.door * 1000) / cpu.mcp.one.calls),
      unit: "µs CPU/call",
      baseline: {
        name: "MCP floor + edge-gateway, same run",
        value: Math.round(floorCpu.mcp.us / floorCpu.mcp.calls + (cpu.rest.one.door * 1000) / cpu.rest.one.calls),
      },
      ratio:
        (cpu.mcp.one.door * 1000) /
        cpu.mcp.one.calls /
        (floorCpu.mcp.us / floorCpu.mcp.calls + (cpu.rest.one.door * 1000) / cpu.rest.one.calls),
      target: "<= 1 (at most their sum)",
      met:
        (cpu.mcp.one.door * 1000) / cpu.mcp.one.calls <=
        floorCpu.mcp.us / floorCpu.mcp.calls + (cpu.rest.one.door * 1000) / cpu.rest.one.calls,
    },
    {
      name: `mcp-gateway audit: PutEvents requests per tool call (${CONNECTIONS} conns)`,
      value: Math.round((audit.putEvents / audit.calls) * 10000) / 10000,
      unit: "PutEvents/call",
      target: "<= 0.1",
      met: audit.putEvents / audit.calls <= 0.1,
    },
    {
      name: `mcp-gateway audit: calls whose audit record the bus accepted, per tool call (${CONNECTIONS} conns)`,
      value: Math.round((audit.published / audit.calls) * 10000) / 10000,
      unit: "records/call",
      target: "= 1 (every call's record, none behind)",
      met: audit.published === audit.calls,
    },
    ...cpuRows(cpu, CONNECTIONS),
  ];
}

/** CPU µs per call of each process, MCP against REST (the baseline), at 1 and at 32 connections. */
function cpuRows(cpu: Record<Door, { one: DoorCpu; many: DoorCpu }>, CONNECTIONS: number) {
  const per = (c: DoorCpu, k: "door" | "connector" | "moto") => Math.round((c[k] * 1000) / c.calls);
  const row = (label: string, k: "door" | "connector" | "moto", at: "one" | "many", restLabel: string) => {
    const [m, r] = [per(cpu.mcp[at], k), per(cpu.rest[at], k)];
    return {
      name: `CPU per call, ${at === "one" ? "1 conn" : `${CONNECTIONS} conns`}: ${label}`,
      value: m,
      unit: "µs CPU/call",
      baseline: { name: restLabel, value: r },
      ...(r > 0 ? { ratio: m / r } : {}),
    };
  };
  return [
    row("mcp-gateway", "door", "one", "edge-gateway"),
    row("mcp-gateway", "door", "many", "edge-gateway"),
    row("connector-svc behind it", "connector", "many", "connector-svc behind the edge gateway"),
    row("moto (MCP: audit events; EventBridge is remote in production)", "moto", "many", "moto, REST"),
  ];
}
