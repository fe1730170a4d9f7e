import assert from "node:assert/strict";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { captureLogs } from "@flowstate/shared/log/capture";
import { createLogger } from "@flowstate/shared/log/logger";
import { afterAll, beforeAll, describe, it } from "vitest";
import { ERASURE_LAG_FIELD, ERASURE_LAG_MESSAGE } from "../../../deploy/aws/stacks/observability.ts";
import { privacyConsumer } from "../src/consumers/handlers.ts";
import { type Account, type ExportStack, startExportStack } from "./export-stack.ts";

/**
 * The ready e-mail against the order events really arrive in, and against SES refusing it. The
 * stack's consumer is stopped: each test hands the events to privacy-svc's handlers itself, in the
 * order it means to test (SQS standard queues and EventBridge promise no order).
 */
describe("the ready e-mail and the deletion reaction: events out of order, SES refusing or slow", () => {
  let s: ExportStack;
  beforeAll(async () => {
    s = await startExportStack("exp_mail");
    await s.consumer.stop({ deadlineMs: 2_000 });
  });
  afterAll(() => s?.close());

  /** A ready export of a new user's, built in process (the fast path), its ExportCompleted not handled yet. */
  const readyExport = async (): Promise<{ user: Account; id: string }> => {
    const user = await s.e2e.signUp();
    const res = await s.e2e.call("POST", "/v1/users/me/export", { token: user.token });
    assert.equal(res.status, 202, res.text);
    const id = res.json.job_id as string;
    await s.poll(user.token, id, (b) => b.status === "ready");
    return { user, id };
  };
  const outboxEnvelope = async (db: ExportStack["privacy"]["db"], key: string, where: string, value: string) => {
    let envelope: unknown;
    await waitFor(
      async () => {
        const [row] = await db.orm.em
          .fork()
          .execute(`SELECT envelope FROM "${db.schema}".outbox_event WHERE event_key = ? AND ${where} = ?`, [
            key,
            value,
          ]);
        envelope = row?.envelope;
        return envelope !== undefined;
      },
      30_000,
      `${key} in the outbox`,
    );
    return envelope as never;
  };
  const handle = (key: keyof typeof privacyConsumer.handlers, envelope: never) =>
    s.privacy.inTransaction((em) => privacyConsumer.handlers[key]!(envelope, em, s.privacy.deps) as Promise<unknown>);
  const sendLog = async (id: string) =>
    await s.privacy.db.orm.em
      .fork()
      .execute(`SELECT status, reason FROM "${s.privacy.db.schema}".send_log WHERE job_id = ?`, [id]);

  it("sends no e-mail and gives no URL when AccountDeleted is handled before ExportCompleted (§7 check 22)", async () => {
    const { user, id } = await readyExport();
    const completed = await outboxEnvelope(s.privacy.db, "ExportCompleted.v1", "envelope->'data'->>'job_id'", id);
    assert.equal((await s.e2e.call("DELETE", "/v1/users/me", { token: user.token })).status, 200);
    const deleted = await outboxEnvelope(s.e2e.identity.db, "AccountDeleted.v1", "envelope->>'subject'", user.sub);

    await handle("AccountDeleted.v1", deleted);
    await handle("ExportCompleted.v1", completed);

    assert.equal((await s.mailTo(user.email)).length, 0, "no e-mail to the deleted account");
    assert.deepEqual(await sendLog(id), [], "nothing was even claimed");
    assert.ok(!(await s.privacy.objects()).includes(`${id}.zip`), "the archive is gone");
    const poll = await s.e2e.call("GET", `/v1/users/me/export/${id}`, { token: user.token });
    assert.equal(poll.status, 401, "the deleted account's token gets no job and no URL");
    assert.equal(poll.json.download_url, undefined);
  });

  it("sends one e-mail when ExportCompleted arrives again while the first send still waits on SES", async () => {
    const { user, id } = await readyExport();
    const completed = await outboxEnvelope(s.privacy.db, "ExportCompleted.v1", "envelope->'data'->>'job_id'", id);
    const ses = s.privacy.deps.ses;
    const name = "slowSesForTheRace";
    let calls = 0;
    // Every SES call waits 1.5 s before it leaves (the real client, to moto): the second delivery
    // comes while the first one's send-log row is inserted but not committed.
    ses.middlewareStack.add(
      (next) => async (args) => {
        calls++;
        await new Promise((r) => setTimeout(r, 1_500));
        return next(args);
      },
      { step: "finalizeRequest", name },
    );
    try {
      const first = handle("ExportCompleted.v1", completed);
      await waitFor(async () => calls === 1, 10_000, "the first send at SES", 20);
      const second = handle("ExportCompleted.v1", completed);
      await Promise.all([first, second]);
    } finally {
      ses.middlewareStack.remove(name);
    }
    assert.equal(calls, 1, "the second delivery waited for the first and then found it sent");
    assert.equal((await s.mailTo(user.email)).length, 1);
    assert.deepEqual(await sendLog(id), [{ status: "sent", reason: null }]);
  });

  it("logs SES's refusal without the addresses it names, releases the claim, and sends once when SES takes it", async () => {
    const { user, id } = await readyExport();
    const completed = await outboxEnvelope(s.privacy.db, "ExportCompleted.v1", "envelope->'data'->>'job_id'", id);
    const deps = s.privacy.deps;
    const { mailFrom } = deps;
    const capture = captureLogs();
    // An unverified sender: SES answers MessageRejected naming the address ("Email address not verified …").
    deps.mailFrom = `unverified-${id.slice(4, 12).toLowerCase()}@flowstate.test`;
    const log = createLogger({ service: "privacy-svc", destination: capture.stream });
    try {
      const failed = await handle("ExportCompleted.v1", completed).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(failed instanceof Error, "the handler throws: the event is redelivered");
      assert.match(failed.message, /@/, "SES's own text names the address");
      // As the consumer logs a failed handler.
      log.error({ err: failed, job_id: id }, "handler failed; the message will be redelivered");
    } finally {
      deps.mailFrom = mailFrom;
    }
    const text = capture.text();
    assert.ok(!text.includes("@flowstate.test"), text);
    assert.ok(!text.includes(user.email), text);
    assert.match(text, /\[email\]/);
    assert.deepEqual(await sendLog(id), [], "the claim rolled back with the transaction, for the retry");

    await handle("ExportCompleted.v1", completed);
    await waitFor(async () => (await s.mailTo(user.email)).length === 1, 30_000, "the ready e-mail", 500);
    assert.deepEqual(await sendLog(id), [{ status: "sent", reason: null }]);
  });

  it("logs the account deletion's lag, the seconds since identity-svc's deletion, in the line deploy/aws makes its metric of (§7 check 7)", async () => {
    const { user } = await readyExport();
    const before = Date.now();
    assert.equal((await s.e2e.call("DELETE", "/v1/users/me", { token: user.token })).status, 200);
    const after = Date.now();
    const deleted = await outboxEnvelope(s.e2e.identity.db, "AccountDeleted.v1", "envelope->>'subject'", user.sub);
    // The event's hop, made long enough to tell a real lag from a zero or a constant.
    await new Promise((r) => setTimeout(r, 1_500 - (Date.now() - after)));
    const deps = s.privacy.deps;
    const { logger } = deps;
    const capture = captureLogs();
    deps.logger = createLogger({ service: "privacy-svc", destination: capture.stream });
    const handledFrom = Date.now();
    try {
      await handle("AccountDeleted.v1", deleted);
    } finally {
      deps.logger = logger;
    }
    const handledTo = Date.now();
    const line = capture.lines.find((l) => l.msg === ERASURE_LAG_MESSAGE);
    assert.ok(line, capture.text());
    const lag = line[ERASURE_LAG_FIELD];
    assert.equal(typeof lag, "number", capture.text());
    // Between (handled − DELETE answered) and (handled − DELETE sent): the deletion's own time.
    assert.ok((lag as number) >= (handledFrom - after) / 1000 && (lag as number) >= 1.4, `lag ${lag}`);
    assert.ok((lag as number) <= (handledTo - before) / 1000, `lag ${lag}`);
  });
});
