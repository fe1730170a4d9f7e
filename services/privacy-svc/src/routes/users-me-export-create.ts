import { routeIn } from "@flowstate/contracts/rest/route";
import { privacyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { PrivacyApp } from "../http/env.ts";
import { requestExport } from "../verbs/request-export.ts";

export function mountUsersMeExportCreate(app: PrivacyApp): void {
  mountRoute(app, routeIn(privacyRoutes, "users.me.export.create"), async (_, c) => {
    const started = await requestExport({ call: c.get("call") });
    return { status: 202, body: started, headers: { location: `/v1/users/me/export/${started.job_id}` } };
  });
}
