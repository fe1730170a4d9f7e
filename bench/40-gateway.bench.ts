/**
 * (issue 4) The REST front door's cost: an authenticated tenant route, GET /v1/tenants/{id}, through
 * edge-gateway (cached token verification, revocation check, membership check, keep-alive pool)
 * to identity-svc (assertion check, one PostgreSQL read), both started as `npm start` starts them
 * (`node src/main.ts`, own processes, stdout to /dev/null), against Hono's bare hello world,
 * measured alternately in the same run. Also: identity-svc alone (a signed assertion, no gateway
 * hop) for calibration, and CPU time per request of each process over the measured window.
 * Targets: >= 15% of bare Hono's rate and p99 < 20 ms at 32 connections.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { IDENTITY_HEADER, signAssertion } from "@flowstate/shared/auth/identity-assertion";
import { decodeJwt } from "jose";
import { bootstrap } from "../deploy/local/bootstrap.ts";
import { stackNames } from "../deploy/local/definition.ts";
import { stackEnvironment } from "../deploy/local/environment.ts";
import { freePort, startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import { type LoadResult, measureHttp } from "./lib/load.ts";
import { startServerProcess } from "./lib/servers.ts";
import type { BenchRow } from "./lib/types.ts";

const CONNECTIONS = 32;
const ROUNDS = 3;
const root = fileURLToPath(new URL("..", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process in ms (/proc/<pid>/stat fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
/** Every PostgreSQL server process on the machine (the bench shares the server with anything else using it). */
const postgresPids = () =>
  readdirSync("/proc").filter((d) => /^\d+$/.test(d) && readFile(`/proc/${d}/comm`) === "postgres").map(Number);
const readFile = (path: string) => {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
};

function startService(name: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["src/main.ts"], { cwd: `${root}services/${name}`, env, stdio: ["ignore", "ignore", "inherit"] });
  child.once("exit", (code) => code && process.stderr.write(`bench: ${name} exited with ${code}\n`));
  return child;
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, string>>;
}

export default async function gatewayBench(): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_bench";
  await ensurePostgres(databaseUrl);
  ensureDatabase(databaseUrl);
  const moto = await startMoto();
  const credentials = { AWS_ACCESS_KEY_ID: "testing", AWS_SECRET_ACCESS_KEY: "testing" };
  const aws = createAwsClients({ endpoint: moto.endpoint, credentials: { accessKeyId: "testing", secretAccessKey: "testing" } });
  const prefix = "flowstate";
  const stage = "dev";
  const { outputs } = await bootstrap({ aws, prefix, stage, mailFrom: "no-reply@flowstate.local" });
  const [identityPort, gatewayPort] = [await freePort(), await freePort()];
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const unlimited = "1000000000";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...credentials,
    ...stackEnvironment(outputs, prefix, stage),
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    STAGE: stage,
    SERVICE_PREFIX: prefix,
    DATABASE_URL: databaseUrl,
    AWS_ENDPOINT_URL: moto.endpoint,
    IDENTITY_URL: identityUrl,
    // One account hammers one tenant here: the per-credential and per-tenant limits would be the bottleneck.
    RATE_LIMIT_CREDENTIAL_PER_SEC: unlimited,
    RATE_LIMIT_CREDENTIAL_BURST: unlimited,
    RATE_LIMIT_TENANT_PER_SEC: unlimited,
    RATE_LIMIT_TENANT_BURST: unlimited,
  };
  const identity = startService("identity-svc", { ...env, PORT: String(identityPort) });
  const gateway = startService("edge-gateway", { ...env, PORT: String(gatewayPort) });
  const bare = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
  try {
    await Promise.all([waitHealthy(identityUrl), waitHealthy(gatewayUrl)]);
    const email = `bench-${randomUUID()}@example.test`;
    const password = `pw-${randomUUID()}`;
    await post(`${gatewayUrl}/v1/auth/signup`, { email, password, name: "Bench" });
    const { access_token: token } = await post(`${gatewayUrl}/v1/auth/signin`, { email, password });
    const tenant = await post(`${gatewayUrl}/v1/tenants`, { name: "Bench" }, token);
    const path = `/v1/tenants/${tenant.id}`;
    const claims = decodeJwt(token!);
    const secret = (await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: stackNames({ prefix, stage }).internalAuthSecretId }))).SecretString!;
    // The service alone: what the gateway would send, signed just before each run (assertions are valid for 30 s).
    const direct = () => ({
      [IDENTITY_HEADER]: signAssertion(secret, "GET", path, {
        identity: { kind: "user", sub: claims.sub!, sid: claims.sid as string },
        tenant: { tenant_id: tenant.id!, role: "owner" },
        request_id: "req_bench_direct",
      }),
    });

    const runs: Record<"bare" | "gateway" | "direct", LoadResult[]> = { bare: [], gateway: [], direct: [] };
    const cpu = { gateway: 0, identity: 0, postgres: 0, generator: 0, requests: 0 };
    const measure = (url: string, headers?: Record<string, string>) => measureHttp({ url, headers, connections: CONNECTIONS, durationMs: 3000 });
    for (let round = 0; round < ROUNDS; round++) {
      const warm = round === 0 ? 1500 : 300;
      await measureHttp({ url: `${bare.url}/healthz`, connections: CONNECTIONS, durationMs: warm });
      runs.bare.push(await measure(`${bare.url}/healthz`));
      await measureHttp({ url: `${gatewayUrl}${path}`, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, durationMs: warm });
      const pg = postgresPids();
      const before = { gateway: cpuMs(gateway.pid!), identity: cpuMs(identity.pid!), postgres: pg.reduce((s, p) => s + readCpuSafe(p), 0) };
      const r = await measure(`${gatewayUrl}${path}`, { authorization: `Bearer ${token}` });
      cpu.gateway += cpuMs(gateway.pid!) - before.gateway;
      cpu.identity += cpuMs(identity.pid!) - before.identity;
      cpu.postgres += pg.reduce((s, p) => s + readCpuSafe(p), 0) - before.postgres;
      cpu.generator += r.generatorCpu * 3000;
      cpu.requests += r.requests;
      runs.gateway.push(r);
      await measureHttp({ url: `${identityUrl}${path}`, headers: direct(), connections: CONNECTIONS, durationMs: warm });
      runs.direct.push(await measure(`${identityUrl}${path}`, direct()));
    }
    for (const [kind, results] of Object.entries(runs)) {
      const bad = results.reduce((s, r) => s + r.errors + r.non2xx, 0);
      if (bad) throw new Error(`${kind}: ${bad} failed or non-2xx responses`);
    }
    const rps = (k: keyof typeof runs) => median(runs[k].map((r) => r.rps));
    const bareRps = rps("bare");
    const ratio = rps("gateway") / bareRps;
    const p99 = median(runs.gateway.map((r) => r.p99Ms));
    const perRequest = (ms: number) => Math.round(((ms * 1000) / cpu.requests) * 10) / 10;
    const baseline = { name: "bare Hono hello world", value: Math.round(bareRps) };
    const name = `edge-gateway -> identity-svc GET /v1/tenants/{id} (${CONNECTIONS} conns, median of ${ROUNDS})`;
    return [
      { name, value: Math.round(rps("gateway")), unit: "req/s", baseline, ratio, target: ">= 15% of bare Hono", met: ratio >= 0.15 },
      { name: `${name} p99`, value: Math.round(p99 * 10) / 10, unit: "ms", target: "< 20 ms", met: p99 < 20 },
      { name: "identity-svc alone, signed assertion, no gateway (calibration: 19%)", value: Math.round(rps("direct")), unit: "req/s", baseline, ratio: rps("direct") / bareRps },
      { name: "CPU per gateway request: edge-gateway", value: perRequest(cpu.gateway), unit: "µs CPU/req" },
      { name: "CPU per gateway request: identity-svc", value: perRequest(cpu.identity), unit: "µs CPU/req" },
      { name: "CPU per gateway request: PostgreSQL (all server processes)", value: perRequest(cpu.postgres), unit: "µs CPU/req" },
      { name: "CPU per gateway request: all server processes", value: perRequest(cpu.gateway + cpu.identity + cpu.postgres), unit: "µs CPU/req" },
      { name: "CPU per gateway request: load generator (not included above)", value: perRequest(cpu.generator), unit: "µs CPU/req" },
    ];
  } finally {
    for (const child of [gateway, identity]) child.kill("SIGTERM");
    await Promise.all([gateway, identity].map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
    await bare.stop();
    await moto.stop();
  }
}

/** A PostgreSQL backend may exit during the window; it then counts as 0 (its CPU is lost, a small undercount). */
function readCpuSafe(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}
