import { TenantId } from "@flowstate/contracts/ids";
import { accessOf } from "@flowstate/contracts/rest/access";
import { defineRoute, type RouteSpec } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { WIDGETS } from "./catalog-entry.ts";

/**
 * Step 4.1 and 4.2: the shapes (zod only) and the registry entries, with who may call each route
 * (`accessOf`): a read for members and read keys, a write for admins and write keys. A real service
 * puts these in contracts/src/rest/widgets/ and adds them to `routes` (contracts/src/rest/routes.ts).
 */
export const Widget = z.object({ id: z.string(), tenant_id: TenantId, name: z.string() });
export type Widget = z.infer<typeof Widget>;
export const WidgetPath = z.object({ id: TenantId, widget_id: z.string().regex(/^wdg_[0-9a-z]{8,32}$/) });
export const WidgetUpdate = z.strictObject({ name: z.string().min(1).max(100) });

const { read, write } = accessOf(WIDGETS);

export const widgetsRoutes = [
  defineRoute({
    id: "widgets.get",
    method: "GET",
    path: "/v1/tenants/{id}/widgets/{widget_id}",
    ...read,
    summary: "One widget of the tenant",
    params: WidgetPath,
    problems: ["NOT_FOUND"],
    responses: { 200: Widget },
  }),
  defineRoute({
    id: "widgets.put",
    method: "PUT",
    path: "/v1/tenants/{id}/widgets/{widget_id}",
    ...write,
    summary: "Creates or renames a widget of the tenant",
    params: WidgetPath,
    body: WidgetUpdate,
    responses: { 200: Widget },
  }),
] as const satisfies readonly RouteSpec[];
