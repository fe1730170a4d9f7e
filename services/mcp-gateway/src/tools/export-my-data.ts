import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool } from "./tool.ts";

/** `export_my_data` (interface 4.2): POST /v1/users/me/export. A person tool: never an API key. */
export const exportMyData = defineTool({
  name: "export_my_data",
  description:
    "Starts an export of the signed-in person's personal data (profile, tenant memberships and roles, earlier export requests, notification preferences) as a ZIP of JSON files. " +
    "Does not wait for it: returns {job_id, status} at once; poll get_my_export_status with job_id until status is ready (it then carries a short-lived download_url) or failed. " +
    "While an export is queued or running, returns that one instead of starting another; refused with EXPORT_RATE_LIMITED within 24 hours of the last completed one. An e-mail (without a link) tells the person when it is ready. " +
    "Needs a person's sign-in with the account scope (not an API key).",
  route: routeIn(privacyRoutes, "users.me.export.create"),
  scope: "account",
  person: true,
  input: {},
  annotations: {
    title: "Export my data",
    readOnlyHint: false,
    destructiveHint: false,
    // Another call after the export is ready (and 24 hours) starts a new export.
    idempotentHint: false,
    openWorldHint: false,
  },
  request: () => ({ path: "/v1/users/me/export" }),
});
