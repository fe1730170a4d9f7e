/**
 * Personal-data export (issue 10) on the local stack as `npm start` runs it (every service a
 * process of its own, moto, the bootstrap), driven through the gateway:
 *
 * - latency from POST /v1/users/me/export to the job reading `ready` (p50, p95 over sequential
 *   exports of a small account), baseline a GET of the job through the gateway;
 * - peak RSS growth of the privacy-svc process while it builds the archive of an account with
 *   10 000 memberships and 1 000 earlier jobs (seeded in PostgreSQL), baseline the growth for the
 *   small account. The kernel's high-water mark (VmHWM, /proc/<pid>/status) is reset before each
 *   build (`clear_refs` 5), so the peak is the build's own, sampled nothing in between.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { launchStack } from "../deploy/local/stack-process.ts";
import { benchDatabase } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const SAMPLES = 20;
const MEMBERSHIPS = 10_000;
const EARLIER_JOBS = 1_000;

const kib = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export default async function privacyExportBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const many = "1000000000";
  const stack = await launchStack(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      EXPORT_MIN_INTERVAL_HOURS: "0", // one account exports again and again here
      RATE_LIMIT_CREDENTIAL_PER_SEC: many,
      RATE_LIMIT_CREDENTIAL_BURST: many,
    },
    180_000,
  );
  const db = await openDatabase({ url: databaseUrl, schema: "privacy", entities: [], migrations: [] });
  try {
    const gateway = stack.services["edge-gateway"]!.url;
    const privacyPid = stack.services["privacy-svc"]!.pid;
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${gateway}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.json()) as Record<string, string>;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const account = async () => {
      const email = `bench-${randomUUID()}@example.test`;
      const password = `pw-${randomUUID()}`;
      const { sub } = await call("POST", "/v1/auth/signup", undefined, {
        email,
        password,
        name: "Bench Exporter",
      });
      const { access_token } = await call("POST", "/v1/auth/signin", undefined, { email, password });
      return { sub: sub!, token: access_token! };
    };
    /** POST, then GET every 20 ms until ready: the latency a polling client sees. */
    const exportOnce = async (token: string) => {
      const started = performance.now();
      const { job_id } = await call("POST", "/v1/users/me/export", token);
      for (;;) {
        const job = await call("GET", `/v1/users/me/export/${job_id}`, token);
        if (job.status === "ready") return { ms: performance.now() - started, jobId: job_id! };
        if (job.status === "failed") throw new Error(`export failed: ${job.failure_reason}`);
        if (performance.now() - started > 120_000) throw new Error("export not ready in 120 s");
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    /** Resets the kernel's peak RSS of privacy-svc to its current RSS (Linux ≥ 4.0). */
    const resetPeak = () => writeFileSync(`/proc/${privacyPid}/clear_refs`, "5");
    const buildPeakGrowth = async (token: string) => {
      const before = kib(privacyPid, "VmRSS");
      resetPeak();
      const { ms } = await exportOnce(token);
      return { mb: (kib(privacyPid, "VmHWM") - before) / 1024, ms };
    };

    // Latency: a small account (a name, no tenants, its own earlier exports).
    const small = await account();
    await exportOnce(small.token); // warm-up: modules, pools, the first presign
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) latencies.push((await exportOnce(small.token)).ms);
    latencies.sort((a, b) => a - b);
    const gets: number[] = [];
    const { job_id } = await call("POST", "/v1/users/me/export", small.token);
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      await call("GET", `/v1/users/me/export/${job_id}`, small.token);
      gets.push(performance.now() - t);
    }
    gets.sort((a, b) => a - b);
    await exportOnce(small.token); // let that job finish before measuring memory

    // Memory: the small account's build, then the large one's, each from a reset peak.
    const smallGrowth = await buildPeakGrowth(small.token);
    const large = await account();
    const tag = randomBytes(4).toString("hex");
    const em = db.em.fork();
    await em.execute(
      `INSERT INTO identity.tenant (id, name, status, created_at)
       SELECT 'tnt_b' || ? || lpad(g::text, 6, '0'), 'Bench tenant ' || g, 'active', now() FROM generate_series(1, ?) g`,
      [tag, MEMBERSHIPS],
    );
    await em.execute(
      `INSERT INTO identity.membership (tenant_id, sub, role, created_at)
       SELECT 'tnt_b' || ? || lpad(g::text, 6, '0'), ?, 'member', now() - g * interval '1 minute' FROM generate_series(1, ?) g`,
      [tag, large.sub, MEMBERSHIPS],
    );
    await em.execute(
      `INSERT INTO privacy.export_job (id, sub, status, requested_at, completed_at, expires_at, failure_reason)
       SELECT 'exp_b' || ? || lpad(g::text, 6, '0'), ?, CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'expired' END,
              now() - g * interval '2 days', now() - g * interval '2 days' + interval '1 second',
              now() - g * interval '2 days' + interval '7 days',
              CASE WHEN g % 10 = 0 THEN 'Your profile could not be collected in time.' END
         FROM generate_series(1, ?) g`,
      [tag, large.sub, EARLIER_JOBS],
    );
    const largeGrowth = await buildPeakGrowth(large.token);

    const p50 = percentile(latencies, 0.5);
    const getP50 = percentile(gets, 0.5);
    return [
      {
        name: `privacy-svc: export POST → ready, p50 (${SAMPLES} sequential, small account)`,
        value: Math.round(p50),
        unit: "ms",
        baseline: { name: "GET of the job through the gateway, p50", value: Math.round(getP50 * 10) / 10 },
        ratio: p50 / getP50,
        target: "p50 < 3000 ms",
        met: p50 < 3000,
      },
      {
        name: "privacy-svc: export POST → ready, p95",
        value: Math.round(percentile(latencies, 0.95)),
        unit: "ms",
      },
      {
        name: `privacy-svc: peak RSS growth, archive of ${MEMBERSHIPS} memberships + ${EARLIER_JOBS} earlier jobs`,
        value: Math.round(largeGrowth.mb * 10) / 10,
        unit: "MB",
        baseline: { name: "the same for the small account", value: Math.round(smallGrowth.mb * 10) / 10 },
        ratio: smallGrowth.mb > 0 ? largeGrowth.mb / smallGrowth.mb : undefined,
        target: "< 64 MB",
        met: largeGrowth.mb < 64,
      },
      {
        name: "privacy-svc: that large export, POST → ready",
        value: Math.round(largeGrowth.ms),
        unit: "ms",
      },
    ];
  } finally {
    await db.close();
    await stack.stop();
  }
}
