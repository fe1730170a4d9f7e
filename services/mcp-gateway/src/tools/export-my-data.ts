import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool } from "./tool.ts";

/** `export_my_data` (interface 4.2): POST /v1/users/me/export. A person tool: never an API key. */
export const exportMyData = defineTool({
  name: "export_my_data",
  description:
    "Starts an export of the signed-in person's data (profile, memberships, export requests, notification preferences) " +
    "as a ZIP of JSON files, or returns the one queued or running. Returns job_id at once: poll get_my_export_status. " +
    "One per 24 hours.",
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
