import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { PrivacyDeps } from "../deps.ts";
import { eraseExports } from "../verbs/erase-exports.ts";
import { runExport } from "../verbs/run-export.ts";
import { sendReadyEmail } from "../verbs/send-ready-email.ts";

/**
 * privacy-svc's consumer (queue `<prefix>-<stage>-privacy-svc`). Its handlers act on S3, SES and
 * the other services through the deps main.ts runs it with; each handler runs in the transaction
 * that records the event id (a duplicate is a no-op), and each verb is also safe to run twice on
 * its own.
 */
export const privacyConsumer = defineConsumer<PrivacyDeps>()({
  service: "privacy-svc",
  handlers: {
    "ExportRequested.v1": (event, em, deps) => runExport(deps, em, event.data.job_id, event.trace),
    "ExportCompleted.v1": (event, em, deps) => sendReadyEmail(deps, em, event.data.job_id),
    "AccountDeleted.v1": async (event, em, deps) => {
      await eraseExports(deps, em, event.data.sub, new Date(event.occurred_at));
    },
  },
});
