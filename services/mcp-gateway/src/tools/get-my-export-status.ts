import { ExportJobPath } from "@flowstate/contracts/rest/privacy/exports";
import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool } from "./tool.ts";

/** `get_my_export_status(job_id)` (interface 4.2): GET /v1/users/me/export/{job_id}. */
export const getMyExportStatus = defineTool({
  name: "get_my_export_status",
  description:
    "Reads an export that export_my_data started: {job_id, status (queued|running|ready|failed|expired), requested_at, completed_at, expires_at}; while ready also download_url, a new link on every call valid a few minutes (download_url_expires_at), " +
    "and when failed a failure_reason (asking again is allowed at once). From 7 days after the file was written the answer is EXPORT_EXPIRED. Someone else's or an unknown job_id is NOT_FOUND. " +
    "Needs a person's sign-in with the account scope (not an API key).",
  route: routeIn(privacyRoutes, "users.me.export.get"),
  scope: "account",
  person: true,
  input: { job_id: ExportJobPath.shape.job_id.describe("job_id of export_my_data's answer") },
  annotations: {
    title: "My export's status",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (args) => ({ path: `/v1/users/me/export/${encodeURIComponent(args.job_id)}` }),
});
