import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { WidgetsApp } from "../deps.ts";
import { widgetsRoutes } from "../registry.ts";
import { putWidget } from "../verbs/put-widget.ts";

export function mountWidgetsPut(app: WidgetsApp): void {
  mountRoute(app, routeIn(widgetsRoutes, "widgets.put"), async ({ params, body }, c) => ({
    status: 200,
    body: await putWidget(c.get("call"), params.id, params.widget_id, body.name),
  }));
}
