import { SendEmailCommand } from "@aws-sdk/client-sesv2";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";
import { type EndpointRow, endpointView } from "../verbs/endpoint-view.ts";
import { MAIL_LEASE_SECONDS, renewMailLease, SES_SEND_TIMEOUT_MS } from "./mail-lease.ts";

/** Attempts per notice (one a minute): identity-svc or SES down for ten minutes loses it, logged. */
const MAX_ATTEMPTS = 10;

/**
 * Sends the due notices of disabled endpoints: each is leased for a minute (another replica skips
 * it; renewed just before its send unless another worker took it meanwhile: mail-lease.ts), its tenant's admins read from identity-svc, one e-mail to them all through SES, then marked
 * sent. At least once: a crash between SES and the mark sends it again. The mail names the endpoint
 * (id, URL as the API shows it) and how to turn it back on; no payload, no other address.
 */
export async function sendNotices(deps: NotifyDeps): Promise<number> {
  const [n, e] = ["admin_notice", "endpoint"].map((t) => qualifiedTable(deps.schema, t)) as [string, string];
  const due = await deps.orm.em.fork().execute<(EndpointRow & { notice_id: string; notice_attempts: number })[]>(
    `WITH due AS (
       SELECT id FROM ${n} WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < ?
        ORDER BY next_attempt_at LIMIT 5 FOR UPDATE SKIP LOCKED
     ), leased AS (
       UPDATE ${n} SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?)
         FROM due WHERE ${n}.id = due.id RETURNING ${n}.id, ${n}.endpoint_id, ${n}.attempts
     )
     SELECT l.id AS notice_id, l.attempts AS notice_attempts, e.id, e.tenant_id, e.kind, e.url, e.types, e.description, e.status, e.disabled_at, e.created_at
       FROM leased l JOIN ${e} e ON e.id = l.endpoint_id`,
    [MAX_ATTEMPTS, MAIL_LEASE_SECONDS],
  );
  for (const row of due) {
    try {
      const admins = await deps.tenantAdmins(row.tenant_id);
      // Still this claim's (mail-lease.ts), and leased afresh for the send.
      const lease = {
        table: n,
        key: "id",
        id: row.notice_id,
        attempts: row.notice_attempts,
        unsent: "sent_at",
      } as const;
      if (!(await renewMailLease(deps, lease))) continue;
      if (admins.length > 0) {
        const endpoint = endpointView(row);
        await deps.ses.send(
          new SendEmailCommand({
            FromEmailAddress: deps.mailFrom,
            Destination: { ToAddresses: admins.map((a) => a.email) },
            Content: {
              Simple: {
                Subject: { Data: "Flowstate: a notification endpoint was disabled", Charset: "UTF-8" },
                Body: {
                  Text: {
                    Charset: "UTF-8",
                    Data:
                      `Every delivery to the ${endpoint.kind} endpoint ${endpoint.id} (${endpoint.url}) failed for 24 hours, ` +
                      "so Flowstate disabled it and stopped sending to it.\n\nOnce it answers again, enable it " +
                      `(POST /v1/tenants/${endpoint.tenant_id}/notifications/endpoints/${endpoint.id}/enable) and replay ` +
                      "what it missed from its delivery log.\n",
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
        .execute(`UPDATE ${n} SET sent_at = now(), recipients = ? WHERE id = ?`, [admins.length, row.notice_id]);
    } catch (err) {
      deps.logger.warn(
        { err, endpoint_id: row.id, tenant_id: row.tenant_id },
        "disabled-endpoint e-mail not sent; retrying",
      );
    }
  }
  return due.length;
}
