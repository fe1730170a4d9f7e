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
 * Sends the ready e-mail for one job, at most once (the ExportCompleted handler; `em` is the
 * consumer's transaction). The job row is held FOR SHARE while the mail goes out, so an account
 * deletion waits for a send in progress and no mail leaves after it cancelled the job.
 *
 * At most once: the send is claimed by inserting its send-log row in a transaction of its own
 * before SES is called; a redelivery finds the claim and does nothing. A failed SES call releases
 * the claim and throws (the event is redelivered). Only a crash between SES accepting the mail and
 * the log saying so leaves a `claimed` row, and then nothing is sent twice.
 *
 * The address and the `export_ready` preference come from identity-svc at the moment of sending
 * (the same participant route as the export); privacy-svc never stores them.
 */
export async function sendReadyEmail(deps: PrivacyDeps, em: EntityManager, jobId: string): Promise<void> {
  const job = await findJob(em, deps.schema, { id: jobId }, "share");
  if (job?.status !== "ready" || !job.expires_at) return;
  const log = deps.logger.child({ job_id: job.id });
  const sendLog = ownCall(deps).table("send_log");
  const autocommit = () => deps.orm.em.fork();
  const claim = await autocommit().execute<{ affectedRows?: number }>(
    `INSERT INTO ${sendLog} (job_id, kind, sub, status, created_at) VALUES (?, ?, ?, 'claimed', ?) ON CONFLICT DO NOTHING`,
    [job.id, KIND, job.sub, deps.clock()],
    "run",
  );
  if (!claim.affectedRows) return;
  const settle = (status: "sent" | "skipped", fields: { reason?: string; provider_message_id?: string }) =>
    autocommit().execute(
      `UPDATE ${sendLog} SET status = ?, reason = ?, provider_message_id = ?, sent_at = ? WHERE job_id = ? AND kind = ?`,
      [status, fields.reason ?? null, fields.provider_message_id ?? null, deps.clock(), job.id, KIND],
    );
  const release = () => autocommit().execute(`DELETE FROM ${sendLog} WHERE job_id = ? AND kind = ?`, [job.id, KIND]);

  let email: string;
  let wanted: boolean;
  try {
    const signal = AbortSignal.timeout(deps.limits.participantTimeoutMs);
    const [profile] = await collect(remoteCategory(deps, "identity-svc", job.sub, "profile", signal));
    const [prefs] = await collect(remoteCategory(deps, "identity-svc", job.sub, "notification_preferences", signal));
    email = (profile as { email: string }).email;
    wanted = (prefs as { export_ready: boolean }).export_ready;
  } catch (err) {
    if (err instanceof AccountGone) {
      await settle("skipped", { reason: "account_deleted" });
      return;
    }
    await release();
    throw err;
  }
  if (!wanted) {
    await settle("skipped", { reason: "preference_off" });
    log.info("ready e-mail not sent: the user turned export_ready off");
    return;
  }
  const { subject, text } = readyEmail({ requested_at: job.requested_at, expires_at: job.expires_at });
  let messageId: string | undefined;
  try {
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
    messageId = res.MessageId;
  } catch (err) {
    await release();
    throw err;
  }
  await settle("sent", { ...(messageId ? { provider_message_id: messageId } : {}) });
  log.info("ready e-mail sent");
}
