import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { PrivacyApp } from "../http/env.ts";
import { getExport } from "../verbs/get-export.ts";

export function mountUsersMeExportGet(app: PrivacyApp): void {
  mountRoute(app, routeIn(privacyRoutes, "users.me.export.get"), async ({ params }, c) => ({
    status: 200,
    body: await getExport({ call: c.get("call"), jobId: params.job_id }),
    headers: { "cache-control": "no-store" }, // every answer carries a different, short-lived URL
  }));
}
