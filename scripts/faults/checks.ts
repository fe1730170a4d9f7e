import { GetQueueAttributesCommand, ListQueuesCommand } from "@aws-sdk/client-sqs";
import { sentMail } from "@flowstate/privacy-svc/testing/aws-fixtures";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { withConnection } from "@flowstate/shared/db/with-connection";

/**
 * What must hold once the system has settled after its faults: nothing lost (every committed
 * outbox row was published and reached audit-svc, which consumes every event; no queue or DLQ holds
 * a message, every finished export got its ready e-mail) and nothing done twice beyond what the
 * design accepts: the ready e-mail is at least once (privacy-svc `send-ready-email.ts`: SES takes no
 * idempotency key, so a process or its connection dying between SES's accept and the commit sends it
 * again on the redelivery). Each fault that can strike that window may account for one such export.
 */
export interface Settled {
  /** Outbox rows never published. */
  unsent: number;
  /** Published events audit-svc never recorded. */
  unaudited: number;
  /** Messages left in the system's queues and DLQs, by queue. */
  queued: Record<string, number>;
  /** Exports whose owner got other than exactly one ready e-mail, with the count (0: lost; 2+: twice). */
  mail: { email: string; count: number }[];
}

/** Exports whose ready e-mail was lost, and those sent more than once. */
export const mailLost = (s: Settled) => s.mail.filter((m) => m.count === 0).length;
export const mailTwice = (s: Settled) => s.mail.filter((m) => m.count > 1).length;

const READY_SUBJECT = "Your Flowstate data export is ready";

export async function settledState(o: {
  adminUrl: string;
  awsEndpoint: string;
  prefix: string;
  exports: { email: string }[];
}): Promise<Settled> {
  const { unsent, unaudited } = await withConnection(o.adminUrl, async (em) => {
    const schemas = (
      await em.execute<{ table_schema: string }[]>(
        "SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox_event'",
      )
    ).map((r) => r.table_schema);
    let unsent = 0;
    let unaudited = 0;
    for (const schema of schemas) {
      const [row] = await em.execute<{ unsent: string; unaudited: string }[]>(
        `SELECT count(*) FILTER (WHERE o.sent_at IS NULL) AS unsent,
                count(*) FILTER (WHERE o.sent_at IS NOT NULL AND a.event_id IS NULL) AS unaudited
           FROM "${schema}".outbox_event o LEFT JOIN audit.audit_event a ON a.event_id = o.id`,
      );
      unsent += Number(row?.unsent ?? 0);
      unaudited += Number(row?.unaudited ?? 0);
    }
    return { unsent, unaudited };
  });
  const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };
  const clients = createAwsClients({ endpoint: o.awsEndpoint, credentials });
  const queued: Record<string, number> = {};
  // eu-central-1's consumer queues and DLQs, and partner-inbound's us-east-1 queue and DLQ.
  for (const sqs of [clients.data("sqs"), clients.partner("partner-sqs")])
    for (const url of (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: o.prefix }))).QueueUrls ?? []) {
      const a = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        }),
      );
      const n =
        Number(a.Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (n) queued[url.split("/").pop()!] = n;
    }
  const mails = (await sentMail(o.awsEndpoint)).filter((m) => m.subject === READY_SUBJECT);
  const mail = o.exports
    .map(({ email }) => ({ email, count: mails.filter((m) => m.destinations.includes(email)).length }))
    .filter((m) => m.count !== 1);
  return { unsent, unaudited, queued, mail };
}

/**
 * `sendWindowFaults`: how many of the run's faults could strike between SES accepting a ready e-mail
 * and its transaction committing (a kill of privacy-svc, every database connection terminated); each
 * may leave one export with a second e-mail. Any other second e-mail is a defect.
 */
export const isClean = (s: Settled, sendWindowFaults = 0) =>
  s.unsent === 0 &&
  s.unaudited === 0 &&
  Object.keys(s.queued).length === 0 &&
  mailLost(s) === 0 &&
  mailTwice(s) <= sendWindowFaults;
