import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { ArchiveManifest } from "@flowstate/contracts/internal/personal-data";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type ExportStack, startExportStack, unzipAll } from "./export-stack.ts";

/**
 * §7 check 16: request-to-ready as a bound, not only a bench figure. Exports through the gateway
 * (the in-process fast path, the event path behind it), each timed from the POST until a poll
 * answers `ready`: a dozen small accounts one after the other, then accounts of the largest expected
 * size (the bench's fixture: 10 000 memberships and 1 000 earlier jobs, seeded in PostgreSQL). The
 * figures are printed for docs/reliability.md and held to bounds a loaded CI machine keeps (the
 * bench measured 0.7 s p50 and 1.0 s p95 small, 5.2 s large, at a load average of 30). An export
 * that waits on a timeout, a deadline (GATHER_DEADLINE_SECONDS, 60 s) or the sweeper fails them.
 */
const SMALL = 12;
const LARGE = 3;
const MEMBERSHIPS = 10_000;
const EARLIER_JOBS = 1_000;
const SMALL_P95_BOUND_MS = 5_000;
const SMALL_MAX_BOUND_MS = 10_000;
const LARGE_MAX_BOUND_MS = 30_000;

const percentile = (sorted: number[], q: number) => sorted[Math.ceil(q * sorted.length) - 1]!;

describe("export latency (§7 check 16)", () => {
  let s: ExportStack;
  beforeAll(async () => {
    s = await startExportStack("exp_latency");
  });
  afterAll(() => s?.close());

  /** POST → ready, in ms; with `expect`, the archive's category counts are checked afterwards. */
  const timeExport = async (token: string, expect?: Record<string, number>) => {
    const began = performance.now();
    const res = await s.e2e.call("POST", "/v1/users/me/export", { token });
    assert.equal(res.status, 202, res.text);
    const ready = await s.poll(token, res.json.job_id as string, (b) => b.status === "ready", 60_000);
    const took = performance.now() - began;
    if (expect) {
      const files = await unzipAll(new Uint8Array(await (await fetch(ready.download_url as string)).arrayBuffer()));
      const manifest = ArchiveManifest.parse(JSON.parse(files["manifest.json"]!));
      const counts = Object.fromEntries(manifest.categories.map((c) => [c.name, c.count]));
      for (const [name, n] of Object.entries(expect)) assert.equal(counts[name], n, `${name} in the archive`);
    }
    return took;
  };

  /** The largest expected account: its memberships in identity-svc, its earlier jobs in privacy-svc. */
  const largeAccount = async () => {
    const user = await s.e2e.signUp();
    const tag = randomBytes(4).toString("hex");
    const identity = s.e2e.identity.db;
    const em = identity.orm.em.fork();
    await em.execute(
      `INSERT INTO "${identity.schema}".tenant (id, name, status, created_at)
       SELECT 'tnt_l' || ? || lpad(g::text, 6, '0'), 'Latency tenant ' || g, 'active', now() FROM generate_series(1, ?) g`,
      [tag, MEMBERSHIPS],
    );
    await em.execute(
      `INSERT INTO "${identity.schema}".membership (tenant_id, sub, role, created_at)
       SELECT 'tnt_l' || ? || lpad(g::text, 6, '0'), ?, 'member', now() - g * interval '1 minute' FROM generate_series(1, ?) g`,
      [tag, user.sub, MEMBERSHIPS],
    );
    const privacy = s.privacy.db;
    await privacy.orm.em.fork().execute(
      `INSERT INTO "${privacy.schema}".export_job (id, sub, status, requested_at, completed_at, expires_at, failure_reason)
       SELECT 'exp_l' || ? || lpad(g::text, 6, '0'), ?, CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'expired' END,
              now() - g * interval '2 days', now() - g * interval '2 days' + interval '1 second',
              now() - g * interval '2 days' + interval '7 days',
              CASE WHEN g % 10 = 0 THEN 'Your profile could not be collected in time.' END
         FROM generate_series(1, ?) g`,
      [tag, user.sub, EARLIER_JOBS],
    );
    return user;
  };

  it(`has small accounts' exports ready within ${SMALL_P95_BOUND_MS / 1000} s at p95 and ${SMALL_MAX_BOUND_MS / 1000} s at most, the largest expected within ${LARGE_MAX_BOUND_MS / 1000} s`, async () => {
    const small: number[] = [];
    for (let i = 0; i < SMALL; i++) small.push(await timeExport((await s.e2e.signUp()).token));
    const large: number[] = [];
    // The archive really is that large: the time is the largest account's, not a shortcut's.
    for (let i = 0; i < LARGE; i++)
      large.push(
        await timeExport((await largeAccount()).token, { memberships: MEMBERSHIPS, export_jobs: EARLIER_JOBS }),
      );
    small.sort((a, b) => a - b);
    large.sort((a, b) => a - b);
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(
      `export request→ready: ${SMALL} small accounts p50 ${ms(percentile(small, 0.5))}, p95 ${ms(percentile(small, 0.95))}, max ${ms(small.at(-1)!)}; ` +
        `${LARGE} of ${MEMBERSHIPS} memberships and ${EARLIER_JOBS} earlier jobs: ${large.map(ms).join(", ")}`,
    );
    assert.ok(percentile(small, 0.95) <= SMALL_P95_BOUND_MS, `small p95 ${ms(percentile(small, 0.95))}`);
    assert.ok(small.at(-1)! <= SMALL_MAX_BOUND_MS, `small max ${ms(small.at(-1)!)}`);
    assert.ok(large.at(-1)! <= LARGE_MAX_BOUND_MS, `large max ${ms(large.at(-1)!)}`);
  }, 300_000);
});
