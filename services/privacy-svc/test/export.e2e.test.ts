import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { ArchiveManifest } from "@flowstate/contracts/internal/personal-data";
import { ExportJob } from "@flowstate/contracts/rest/privacy/exports";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sweepExports } from "../src/verbs/sweep-exports.ts";
import { type Account, type ExportStack, startExportStack, unzipAll } from "./export-stack.ts";
import { presignedUrlValid } from "./presigned.ts";

/**
 * Issue 10's acceptance, through the gateway: request, poll to ready, download through the
 * presigned URL with a plain HTTP client, unzip with Info-ZIP and compare every file with what
 * the user holds; the ready e-mail as moto's SES store has it; URL lifetime; the 7-day limit with
 * the clock moved.
 */
const DAY = 24 * 3600_000;

describe("a personal-data export, end to end through the gateway", () => {
  let s: ExportStack;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let tenants: { id: string; name: string; role: string }[];
  let jobId: string;
  let files: Record<string, string>;
  let ready: ExportJob;

  const call = (method: string, path: string, token: string, body?: unknown) =>
    s.e2e.call(method, path, { token, body });
  const exportOnce = async (token: string) => {
    const res = await call("POST", "/v1/users/me/export", token);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.headers.get("location"), `/v1/users/me/export/${res.json.job_id}`);
    const done = await s.poll(token, res.json.job_id, (b) => b.status === "ready");
    return { id: res.json.job_id as string, body: ExportJob.parse(done) };
  };

  beforeAll(async () => {
    s = await startExportStack("exp_e2e");
    [alice, bob, carol] = await Promise.all([s.e2e.signUp(), s.e2e.signUp(), s.e2e.signUp()]);
    const name = (a: Account, n: string) => call("PATCH", "/v1/users/me", a.token, { name: n });
    assert.equal((await name(alice, "Alice Exporter")).status, 200);
    assert.equal((await name(carol, "Carol Colleague")).status, 200);
    const pic = await call("PATCH", "/v1/users/me", alice.token, {
      picture_url: "https://pictures.example.test/alice.png",
    });
    assert.equal(pic.status, 200, pic.text);
    const create = async (owner: Account, n: string) =>
      (await call("POST", "/v1/tenants", owner.token, { name: n })).json.id as string;
    const own = await create(alice, "Alice's Own");
    const shared = await create(bob, "Shared Workspace");
    const other = await create(bob, "Bob's Other");
    // Membership is an invitation the invitee accepts (addMember does both through the gateway).
    await s.e2e.addMember(bob, shared, alice, "admin");
    await s.e2e.addMember(bob, other, alice, "member");
    await s.e2e.addMember(bob, shared, carol, "member");
    tenants = [
      { id: own, name: "Alice's Own", role: "owner" },
      { id: shared, name: "Shared Workspace", role: "admin" },
      { id: other, name: "Bob's Other", role: "member" },
    ];
    const prefs = await call("PUT", "/v1/users/me/notification-preferences", alice.token, {
      product_updates: true,
      security_alerts: false,
    });
    assert.equal(prefs.status, 200, prefs.text);
    // Two earlier exports, a day apart each (the rate limit is one successful export per 24 hours).
    await exportOnce(alice.token);
    s.privacy.clock.advance(DAY + 60_000);
    await exportOnce(alice.token);
    s.privacy.clock.advance(DAY + 60_000);
    ({ id: jobId, body: ready } = await exportOnce(alice.token));
    const download = await fetch(ready.download_url!);
    assert.equal(download.status, 200);
    files = await unzipAll(new Uint8Array(await download.arrayBuffer()));
  });
  afterAll(() => s?.close());

  it("holds exactly the four categories and the manifest, each matching the user's data", () => {
    assert.deepEqual(Object.keys(files).sort(), [
      "export_jobs.json",
      "manifest.json",
      "memberships.json",
      "notification_preferences.json",
      "profile.json",
    ]);
    const profile = JSON.parse(files["profile.json"]!);
    assert.deepEqual(
      { ...profile, created_at: undefined },
      {
        sub: alice.sub,
        name: "Alice Exporter",
        email: alice.email,
        picture_url: "https://pictures.example.test/alice.png",
        status: "active",
        created_at: undefined,
      },
    );
    assert.ok(Date.parse(profile.created_at) <= Date.now());
    const memberships = JSON.parse(files["memberships.json"]!) as Record<string, string>[];
    assert.deepEqual(
      memberships
        .map((m) => ({ id: m.tenant_id!, name: m.tenant_name!, role: m.role! }))
        .sort((a, b) => a.id.localeCompare(b.id)),
      [...tenants].sort((a, b) => a.id.localeCompare(b.id)),
    );
    for (const m of memberships) assert.equal(m.tenant_status, "active");
    assert.deepEqual(JSON.parse(files["notification_preferences.json"]!), {
      export_ready: true,
      security_alerts: false,
      offer_change_results: true,
      product_updates: true,
    });
    const history = JSON.parse(files["export_jobs.json"]!) as Record<string, string>[];
    assert.equal(history.length, 2, "the two earlier jobs, not the one being built");
    assert.ok(history.every((j) => j.status === "ready" && j.job_id !== jobId && j.completed_at));
    const manifest = ArchiveManifest.parse(JSON.parse(files["manifest.json"]!));
    assert.equal(manifest.sub, alice.sub);
    assert.equal(manifest.job_id, jobId);
    assert.deepEqual(Object.fromEntries(manifest.categories.map((c) => [c.name, c.count])), {
      profile: 1,
      memberships: 3,
      export_jobs: 2,
      notification_preferences: 1,
    });
  });

  it("carries no other person's data and no secrets", () => {
    const all = Object.values(files).join("\n");
    for (const other of [bob, carol]) {
      assert.ok(!all.includes(other.sub), "another member's sub");
      assert.ok(!all.includes(other.email), "another member's e-mail");
    }
    assert.ok(!all.includes("Carol Colleague"));
    assert.doesNotMatch(all, /password|argon2|secret|token|api_key|key_[0-9A-Za-z]{10}|ses_[0-9A-Za-z]{10}/i);
  });

  it("says it is ready by e-mail without any URL, link, token or job id, once per job", async () => {
    // The e-mail follows ExportCompleted, one event hop after the job turned ready.
    await waitFor(async () => (await s.mailTo(alice.email)).length >= 3, 60_000, "three ready e-mails", 500);
    await new Promise((r) => setTimeout(r, 500));
    const mails = await s.mailTo(alice.email);
    assert.equal(mails.length, 3, "one e-mail for each of the three exports");
    for (const m of mails) {
      assert.match(m.subject, /export is ready/);
      assert.doesNotMatch(`${m.subject}\n${m.body}`, /https?:|:\/\/|www\.|href|exp_[0-9A-Za-z]|X-Amz|token/i);
      assert.match(m.body, /no download link/);
    }
    const [row] = await s.privacy.db.orm.em
      .fork()
      .execute(
        `SELECT count(*)::int AS n FROM "${s.privacy.db.schema}".send_log WHERE job_id = ? AND status = 'sent'`,
        [jobId],
      );
    assert.equal(row?.n, 1);
  });

  it("gives a new download URL on every poll", async () => {
    const a = await call("GET", `/v1/users/me/export/${jobId}`, alice.token);
    const b = await call("GET", `/v1/users/me/export/${jobId}`, alice.token);
    assert.equal(a.status, 200);
    assert.notEqual(a.json.download_url, b.json.download_url);
    assert.equal(new URL(a.json.download_url).searchParams.get("X-Amz-Expires"), "300");
    assert.equal(a.headers.get("cache-control"), "no-store");
  });

  it("answers another user's job and an unknown id with the same 404", async () => {
    const foreign = await call("GET", `/v1/users/me/export/${jobId}`, carol.token);
    const unknown = await call("GET", `/v1/users/me/export/exp_${randomUUID().replaceAll("-", "")}`, carol.token);
    assert.equal(foreign.status, 404);
    const { request_id: _a, ...f } = foreign.json;
    const { request_id: _b, ...u } = unknown.json;
    assert.deepEqual(f, u);
  });

  it("refuses a new export within 24 hours of a successful one, naming the one to download", async () => {
    const res = await call("POST", "/v1/users/me/export", alice.token);
    assert.equal(res.status, 429, res.text);
    assert.equal(res.json.code, "EXPORT_RATE_LIMITED");
    assert.equal(res.json.job_id, jobId);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
  });

  it("lets a URL stop working after its lifetime", async () => {
    const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };
    const ttl = s.privacy.deps.limits.downloadUrlTtlSeconds;
    s.privacy.deps.limits.downloadUrlTtlSeconds = 2;
    try {
      const res = await call("GET", `/v1/users/me/export/${jobId}`, alice.token);
      const url = res.json.download_url as string;
      assert.equal(new URL(url).searchParams.get("X-Amz-Expires"), "2");
      assert.ok(Date.parse(res.json.download_url_expires_at) <= Date.now() + 2_000);
      assert.deepEqual(presignedUrlValid(url, credentials), { valid: true });
      const inTime = await fetch(url);
      assert.equal(inTime.status, 200);
      await inTime.body?.cancel();
      await new Promise((r) => setTimeout(r, 3_100));
      // S3 refuses it from here on (403 AccessDenied "Request has expired"); moto does not check, see presigned.ts.
      assert.deepEqual(presignedUrlValid(url, credentials), { valid: false, reason: "expired" });
      const fresh = await call("GET", `/v1/users/me/export/${jobId}`, alice.token);
      assert.deepEqual(presignedUrlValid(fresh.json.download_url, credentials), { valid: true });
    } finally {
      s.privacy.deps.limits.downloadUrlTtlSeconds = ttl;
    }
  });

  it("answers 410 from 7 days after the file was written, even while it still exists, and the sweeper deletes it", async () => {
    assert.ok((await s.privacy.objects()).includes(`${jobId}.zip`));
    s.privacy.clock.advance(7 * DAY);
    const gone = await call("GET", `/v1/users/me/export/${jobId}`, alice.token);
    assert.equal(gone.status, 410, gone.text);
    assert.equal(gone.json.code, "EXPORT_EXPIRED");
    assert.equal(gone.json.download_url, undefined);
    assert.ok((await s.privacy.objects()).includes(`${jobId}.zip`), "not deleted yet: the 410 comes from the row");
    const swept = await sweepExports(s.privacy.deps);
    assert.ok(swept.expired >= 1);
    assert.ok(!(await s.privacy.objects()).includes(`${jobId}.zip`));
    assert.equal((await call("GET", `/v1/users/me/export/${jobId}`, alice.token)).status, 410);
  });
});
