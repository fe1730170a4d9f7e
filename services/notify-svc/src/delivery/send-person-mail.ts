import { SendEmailCommand } from "@aws-sdk/client-sesv2";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";
import { MAIL_LEASE_SECONDS, renewMailLease, SES_SEND_TIMEOUT_MS } from "./mail-lease.ts";

/** Attempts per mail (one a minute) while identity-svc or SES cannot be reached. */
const MAX_ATTEMPTS = 10;

const SUBJECTS: Record<string, string> = {
  "offer.change_succeeded": "Flowstate: your offer change succeeded",
  "offer.released": "Flowstate: your offer was released",
  "offer.expired": "Flowstate: your offer was expired",
  "offer.change_failed": "Flowstate: your offer change failed",
};

/**
 * Sends the due per-person mails (an offer change's result to whoever asked for it): each leased
 * for a minute (renewed just before its send, unless another worker took it meanwhile: mail-lease.ts), the person's address and `offer_change_results` preference read from identity-svc
 * now (a person who turned it off, or whose account is gone, gets nothing, recorded as such), one
 * SES v2 mail with the change's ids and states, then marked done. At least once.
 */
export async function sendPersonMail(deps: NotifyDeps): Promise<number> {
  const table = qualifiedTable(deps.schema, "person_mail");
  const due = await deps.orm.em
    .fork()
    .execute<{ event_id: string; sub: string; type: string; body: string; attempts: number }[]>(
      `UPDATE ${table} SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?)
        WHERE event_id IN (SELECT event_id FROM ${table} WHERE done_at IS NULL AND next_attempt_at <= now() AND attempts < ?
                            ORDER BY next_attempt_at LIMIT 10 FOR UPDATE SKIP LOCKED)
        RETURNING event_id, sub, type, body, attempts`,
      [MAIL_LEASE_SECONDS, MAX_ATTEMPTS],
    );
  for (const mail of due) {
    try {
      const target = await deps.mailTarget(mail.sub);
      // Still this claim's (mail-lease.ts), and leased afresh for the send.
      const lease = { table, key: "event_id", id: mail.event_id, attempts: mail.attempts, unsent: "done_at" } as const;
      if (!(await renewMailLease(deps, lease))) continue;
      let outcome: "sent" | "preference_off" | "account_gone" = "sent";
      if (!target) outcome = "account_gone";
      else if (!target.preferences.offer_change_results) outcome = "preference_off";
      else {
        const data = JSON.parse(mail.body) as Record<string, unknown>;
        const facts = Object.entries(data)
          .filter(([k]) => k !== "tenant_id")
          .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
          .join("\n");
        await deps.ses.send(
          new SendEmailCommand({
            FromEmailAddress: deps.mailFrom,
            Destination: { ToAddresses: [target.email] },
            Content: {
              Simple: {
                Subject: { Data: SUBJECTS[mail.type] ?? `Flowstate: ${mail.type}`, Charset: "UTF-8" },
                Body: {
                  Text: {
                    Charset: "UTF-8",
                    Data: `${facts}\n\nYou asked for this change. Turn these e-mails off in your notification preferences (offer_change_results).\n`,
                  },
                },
              },
            },
          }),
          { abortSignal: AbortSignal.timeout(SES_SEND_TIMEOUT_MS) },
        );
      }
      await deps.orm.em
        .fork()
        .execute(`UPDATE ${table} SET outcome = ?, done_at = now() WHERE event_id = ?`, [outcome, mail.event_id]);
    } catch (err) {
      deps.logger.warn({ err, event_id: mail.event_id }, "offer-change e-mail not sent; retrying");
    }
  }
  return due.length;
}
