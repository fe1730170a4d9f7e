import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, it } from "vitest";
import { findJob } from "../src/db/jobs.ts";
import { runExport } from "../src/verbs/run-export.ts";
import { type Account, type ExportStack, startExportStack } from "./export-stack.ts";

/**
 * Issue 10's reliability acceptance, through the gateway with the real event path: concurrent
 * requests, every event delivered twice, a participant down, and the account deleted while its
 * export runs or after it is ready.
 */
describe("personal-data exports under duplicates, outages and account deletion", () => {
  let s: ExportStack;
  let identityUrl: string;
  beforeAll(async () => {
    s = await startExportStack("exp_rel", { gatherDeadlineMs: 1_500 });
    identityUrl = s.privacy.deps.participantUrls["identity-svc"]!;
  });
  afterAll(() => s?.close());

  const start = async (a: Account) => {
    const res = await s.e2e.call("POST", "/v1/users/me/export", { token: a.token });
    assert.equal(res.status, 202, res.text);
    return res.json.job_id as string;
  };
  const row = async (id: string) => {
    const [r] = await s.privacy.db.orm.em
      .fork()
      .execute(`SELECT * FROM "${s.privacy.db.schema}".export_job WHERE id = ?`, [id]);
    return r as Record<string, unknown>;
  };
  const sendLogRows = async (id: string) =>
    (
      await s.privacy.db.orm.em
        .fork()
        .execute(`SELECT status FROM "${s.privacy.db.schema}".send_log WHERE job_id = ?`, [id])
    ).length;
  const envelope = async (key: string, jobId: string) => {
    const [r] = await s.privacy.db.orm.em
      .fork()
      .execute(
        `SELECT envelope FROM "${s.privacy.db.schema}".outbox_event WHERE event_key = ? AND envelope->'data'->>'job_id' = ?`,
        [key, jobId],
      );
    assert.ok(r, `${key} of ${jobId} in the outbox`);
    return JSON.stringify(r.envelope);
  };
  const settle = (ms = 1_500) => new Promise((r) => setTimeout(r, ms));

  it("never waits on a job another build holds, so a burst of builders cannot exhaust the pool", async () => {
    // A queued job whose row a build in progress holds (this test's transaction, FOR UPDATE).
    const user = await s.e2e.signUp();
    const id = `exp_held_${Date.now()}`;
    const { orm, schema } = s.privacy.db;
    await orm.em
      .fork()
      .execute(`INSERT INTO "${schema}".export_job (id, sub, status, requested_at) VALUES (?, ?, 'queued', now())`, [
        id,
        user.sub,
      ]);
    const deps = s.privacy.deps;
    const within = <T>(ms: number, p: Promise<T>, what: string) =>
      Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`${what} waited`)), ms))]);
    await orm.em
      .fork()
      .transactional(async (holder) => {
        assert.ok(await findJob(holder as EntityManager, schema, { id }, "update"));
        // The in-process fast path returns at once, leaving the job to the build that holds it:
        // before, its status UPDATE waited on the row while its transaction held a second connection.
        const fast = orm.em.fork().transactional((em) => runExport(deps, em as EntityManager, id, undefined, "skip"));
        await within(2_000, fast, "the fast path");
        // The durable path waits for the holder, but with its transaction's one connection only.
        const held = orm.em.fork().transactional((em) => runExport(deps, em as EntityManager, id));
        await settle(300);
        const waiting = await orm.em.fork().execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE ?`,
          [`%"${schema}"."export_job"%`],
        );
        assert.equal(waiting[0]!.n, 1, "one statement waits on the held row: the handler's own lock");
        // The holder cancels the job, as an account deletion would; the handler then finds it done.
        await holder.execute(`UPDATE "${schema}".export_job SET status = 'cancelled' WHERE id = ?`, [id]);
        // Not the promise itself: the transaction would wait for it, and it waits for the commit.
        return { held };
      })
      .then(({ held }) => within(5_000, held, "the durable path after the holder committed"));
    const after = await row(id);
    assert.equal(after.status, "cancelled");
    assert.equal(after.attempts, 0, "neither path marked a job it did not hold");
  });

  it("gives 20 concurrent requests one job and one ExportRequested", async () => {
    const user = await s.e2e.signUp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => s.e2e.call("POST", "/v1/users/me/export", { token: user.token })),
    );
    // The fast path can finish the job (~0.1 s) before the last of the 20 arrives on a loaded
    // machine: that one is then 429 EXPORT_RATE_LIMITED naming the same job (seen 2026-11-26).
    for (const a of answers)
      assert.ok(a.status === 202 || (a.status === 429 && a.json.code === "EXPORT_RATE_LIMITED"), a.text);
    assert.ok(answers.some((a) => a.status === 202));
    const ids = new Set(answers.map((a) => a.json.job_id));
    assert.equal(ids.size, 1);
    const [counted] = await s.privacy.db.orm.em
      .fork()
      .execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${s.privacy.db.schema}".outbox_event WHERE event_key = 'ExportRequested.v1' AND envelope->>'subject' = ?`,
        [user.sub],
      );
    assert.equal(counted?.n, 1);
    await s.poll(user.token, [...ids][0], (b) => b.status === "ready");
  });

  it("builds one archive and sends one e-mail with one send-log row when every event arrives twice", async () => {
    const user = await s.e2e.signUp();
    const id = await start(user);
    await s.poll(user.token, id, (b) => b.status === "ready");
    await waitFor(async () => (await s.mailTo(user.email)).length === 1, 60_000, "the ready e-mail", 500);
    const before = await row(id);
    const duplicatesBefore = s.consumer.stats().duplicates;
    const requested = await envelope("ExportRequested.v1", id);
    const completed = await envelope("ExportCompleted.v1", id);
    // Twice more each: two copies in one receive (handled as twins) and then one more of each later.
    await sendBodies(s.privacy.aws.data("sqs"), s.queue.queueUrl, [requested, requested, completed, completed]);
    await waitFor(() => s.consumer.stats().duplicates >= duplicatesBefore + 4, 60_000, "the duplicates");
    await sendBodies(s.privacy.aws.data("sqs"), s.queue.queueUrl, [requested, completed]);
    await waitFor(() => s.consumer.stats().duplicates >= duplicatesBefore + 6, 60_000, "the late duplicates");
    await settle(500);
    assert.deepEqual(
      (await s.privacy.objects()).filter((k) => k.startsWith(id)),
      [`${id}.zip`],
    );
    assert.deepEqual(await row(id), before, "the job is untouched by the duplicates");
    assert.equal((await s.mailTo(user.email)).length, 1);
    assert.equal(await sendLogRows(id), 1);
  });

  it("fails the job with a reason when a participant is down, writes nothing, and lets the user ask again at once", async () => {
    const user = await s.e2e.signUp();
    const dead = await closedPort();
    s.privacy.deps.participantUrls["identity-svc"] = dead;
    let id: string;
    try {
      id = await start(user);
      const failed = await s.poll(user.token, id, (b) => b.status === "failed", 60_000);
      assert.match(
        String(failed.failure_reason),
        /could not be collected.*Nothing was exported.*request a new export/s,
      );
      assert.equal(failed.download_url, undefined);
    } finally {
      s.privacy.deps.participantUrls["identity-svc"] = identityUrl;
    }
    await settle();
    assert.ok(!(await s.privacy.objects()).some((k) => k.startsWith(id)), "no partial archive");
    assert.equal((await s.mailTo(user.email)).length, 0);
    const again = await start(user);
    assert.notEqual(again, id);
    await s.poll(user.token, again, (b) => b.status === "ready");
    await waitFor(
      async () => (await s.mailTo(user.email)).length === 1,
      60_000,
      "the ready e-mail of the new job",
      500,
    );
  });

  it("leaves no archive and sends no e-mail when the account is deleted while its export runs", async () => {
    const user = await s.e2e.signUp();
    const gate = await gatedProxy(identityUrl);
    s.privacy.deps.participantUrls["identity-svc"] = gate.url;
    try {
      const id = await start(user);
      await s.poll(user.token, id, (b) => b.status === "running");
      await waitFor(() => gate.waiting() > 0, 60_000, "the build asking identity-svc");
      const deleted = await s.e2e.call("DELETE", "/v1/users/me", { token: user.token });
      assert.equal(deleted.status, 200, deleted.text);
      gate.open();
      await waitFor(async () => (await row(id)).erased_at !== null, 60_000, "the AccountDeleted reaction");
      const r = await row(id);
      assert.equal(r.status, "cancelled");
      assert.equal(r.file_key, null);
      await settle();
      assert.ok(!(await s.privacy.objects()).some((k) => k.startsWith(id)), "no archive survives");
      assert.equal((await s.mailTo(user.email)).length, 0, "no e-mail afterwards");
      assert.equal(await sendLogRows(id), 0);
    } finally {
      s.privacy.deps.participantUrls["identity-svc"] = identityUrl;
      await gate.close();
    }
  });

  it("deletes a ready archive and reduces the job rows when the account is deleted, also when AccountDeleted comes twice", async () => {
    const user = await s.e2e.signUp();
    const id = await start(user);
    await s.poll(user.token, id, (b) => b.status === "ready");
    await waitFor(async () => (await s.mailTo(user.email)).length === 1, 60_000, "the ready e-mail", 500);
    assert.ok((await s.privacy.objects()).includes(`${id}.zip`));
    assert.equal((await s.e2e.call("DELETE", "/v1/users/me", { token: user.token })).status, 200);
    await waitFor(async () => (await row(id)).erased_at !== null, 60_000, "the AccountDeleted reaction");
    const [deletedEvent] = await s.e2e.identity.db.orm.em
      .fork()
      .execute(
        `SELECT envelope FROM "${s.e2e.identity.db.schema}".outbox_event WHERE event_key = 'AccountDeleted.v1' AND envelope->>'subject' = ?`,
        [user.sub],
      );
    const once = await row(id);
    await sendBodies(s.privacy.aws.data("sqs"), s.queue.queueUrl, [JSON.stringify(deletedEvent?.envelope)]);
    await settle();
    assert.deepEqual(await row(id), once);
    assert.ok(!(await s.privacy.objects()).includes(`${id}.zip`));
    assert.equal(once.status, "expired");
    assert.equal(once.file_key, null);
    assert.equal(once.failure_reason, null);
    assert.equal(await sendLogRows(id), 1, "the send log is kept");
    assert.equal((await s.e2e.call("GET", `/v1/users/me/export/${id}`, { token: user.token })).status, 401);
  });
});

/** A loopback URL nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

/** A proxy to `target` that holds every request until `open()`: an export caught mid-gathering. */
async function gatedProxy(target: string) {
  let release!: () => void;
  const opened = new Promise<void>((r) => {
    release = r;
  });
  let waiting = 0;
  const server: Server = createServer(async (req, res) => {
    waiting++;
    await opened;
    const upstream = await fetch(new URL(req.url!, target), { headers: req.headers as Record<string, string> });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    waiting: () => waiting,
    open: () => release(),
    close: () => new Promise((r) => server.close(r)),
  };
}
