import { SendEmailCommand } from "@aws-sdk/client-sesv2";
import type { EntityManager } from "@mikro-orm/postgresql";
import { ownCall } from "../call.ts";
import { findJob } from "../db/jobs.ts";
import type { PrivacyDeps } from "../deps.ts";
import { AccountGone } from "../gathering/errors.ts";
import { remoteCategory } from "../gathering/participant-client.ts";
import { readyEmail } from "../mail/ready-email.ts";

const KIND = "export_ready";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Sends the ready e-mail for one job: never lost, and recorded once; sent twice only after a crash
 * in the narrow window below (the ExportCompleted handler; `em` is the consumer's transaction,
 * which also records the event id). The send-log row's primary key, in the old migration's words
 * "the at-most-once guard", is now the duplicate guard of this at-least-once send.
 *
 * The durable intent is ExportCompleted itself: it is committed with the job's `ready` (outbox), and
 * its message stays on the queue until the transaction below commits. The send-log row is inserted
 * in that same transaction before SES is called and settled after SES answers, so:
 * - the process dying anywhere before the commit (after the insert, while SES is called, before SES
 *   answers) rolls the row back with the transaction; the message comes back after its visibility
 *   timeout and the mail is sent then. Before 2026-11-26 the row was committed on its own first, and
 *   such a kill lost the mail for good (scripts/faults/README.md).
 * - a second delivery of the event while the first is still sending waits on the row's primary key
 *   (PostgreSQL holds a conflicting insert until the first transaction ends), then finds it and does
 *   nothing; if the first rolled back, the second sends.
 * - the one duplicate left: SES accepted the mail and the process died before the commit (a few
 *   milliseconds). SES v2 takes no idempotency key, so nothing can tell that send from a lost one;
 *   a second identical mail with no link in it is the accepted price of never losing one.
 * The job row is held FOR SHARE meanwhile, so privacy-svc's AccountDeleted reaction waits for a send
 * in progress, and a retry after it finds the job expired and sends nothing.
 *
 * The address and the `export_ready` preference come from identity-svc at the moment of sending
 * (the same participant route as the export), on every attempt; privacy-svc never stores them.
 */
export async function sendReadyEmail(deps: PrivacyDeps, em: EntityManager, jobId: string): Promise<void> {
  const job = await findJob(em, deps.schema, { id: jobId }, "share");
  if (job?.status !== "ready" || !job.expires_at) return;
  const log = deps.logger.child({ job_id: job.id });
  const sendLog = ownCall(deps).table("send_log");
  const claim = await em.execute<{ affectedRows?: number }>(
    `INSERT INTO ${sendLog} (job_id, kind, sub, status, created_at) VALUES (?, ?, ?, 'claimed', ?) ON CONFLICT DO NOTHING`,
    [job.id, KIND, job.sub, deps.clock()],
    "run",
  );
  if (!claim.affectedRows) return;
  const settle = (status: "sent" | "skipped", fields: { reason?: string; provider_message_id?: string }) =>
    em.execute(
      `UPDATE ${sendLog} SET status = ?, reason = ?, provider_message_id = ?, sent_at = ? WHERE job_id = ? AND kind = ?`,
      [status, fields.reason ?? null, fields.provider_message_id ?? null, deps.clock(), job.id, KIND],
    );

  // Any error below throws: the transaction rolls the claim back and the event is redelivered.
  let email: string;
  let wanted: boolean;
  try {
    const signal = AbortSignal.timeout(deps.limits.participantTimeoutMs);
    const [profile] = await collect(remoteCategory(deps, "identity-svc", job.sub, "profile", signal));
    const [prefs] = await collect(remoteCategory(deps, "identity-svc", job.sub, "notification_preferences", signal));
    email = (profile as { email: string }).email;
    wanted = (prefs as { export_ready: boolean }).export_ready;
  } catch (err) {
    if (!(err instanceof AccountGone)) throw err;
    await settle("skipped", { reason: "account_deleted" });
    return;
  }
  if (!wanted) {
    await settle("skipped", { reason: "preference_off" });
    log.info("ready e-mail not sent: the user turned export_ready off");
    return;
  }
  const { subject, text } = readyEmail({ requested_at: job.requested_at, expires_at: job.expires_at });
  const res = await deps.ses.send(
    new SendEmailCommand({
      FromEmailAddress: deps.mailFrom,
      Destination: { ToAddresses: [email] },
      Content: {
        Simple: {
          Subject: { Data: subject, Charset: "UTF-8" },
          Body: { Text: { Data: text, Charset: "UTF-8" } },
        },
      },
    }),
  );
  await settle("sent", { ...(res.MessageId ? { provider_message_id: res.MessageId } : {}) });
  log.info("ready e-mail sent");
}
