import { ExportJobPath } from "@flowstate/contracts/rest/privacy/exports";
import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool } from "./tool.ts";

/** `get_my_export_status(job_id)` (interface 4.2): GET /v1/users/me/export/{job_id}. */
export const getMyExportStatus = defineTool({
  name: "get_my_export_status",
  description:
    "Reads an export that export_my_data started. When ready it has a download_url, new at every call and valid a few " +
    "minutes; when failed, export again. Gone (EXPORT_EXPIRED) 7 days after it was written.",
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
