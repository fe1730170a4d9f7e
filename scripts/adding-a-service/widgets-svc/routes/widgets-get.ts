import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { WidgetsApp } from "../deps.ts";
import { widgetsRoutes } from "../registry.ts";
import { getWidget } from "../verbs/get-widget.ts";

/** Step 4.3: one file per route, named after its id; validate, call the verb, answer. No access check. */
export function mountWidgetsGet(app: WidgetsApp): void {
  mountRoute(app, routeIn(widgetsRoutes, "widgets.get"), async ({ params }, c) => ({
    status: 200,
    body: await getWidget(c.get("call"), params.id, params.widget_id),
  }));
}
