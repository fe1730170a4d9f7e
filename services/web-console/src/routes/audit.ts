import type { AuditEvent } from "@flowstate/contracts/rest/audit/audit-events";
import { html } from "hono/html";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { auditTable } from "../pages/audit-table.ts";
import { renderProblem } from "../pages/error-page.ts";
import { layout } from "../pages/layout.ts";
import { pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

type Page = { items: AuditEvent[]; next_cursor: string | null };
const TYPE = /^[A-Z][A-Za-z]+$/;

/** The query a listing passes on: the event type filter and the cursor, each only when well-formed. */
function listQuery(c: ConsoleContext) {
  const type = c.req.query("type");
  const cursor = c.req.query("cursor");
  return {
    type: type && TYPE.test(type) ? type : undefined,
    q: new URLSearchParams({
      ...(type && TYPE.test(type) && { type }),
      ...(cursor && /^[A-Za-z0-9_-]{1,200}$/.test(cursor) && { cursor }),
    }),
  };
}

const typeFilter = (
  action: string,
  type: string | undefined,
) => html`<form method="get" action="${action}" class="filters">
  <label for="type">Event type</label>
  <input id="type" name="type" value="${type ?? ""}" placeholder="e.g. MembershipAdded" spellcheck="false">
  <button type="submit">Filter</button>
</form>`;

/** The tenant's audit log (admins; the API answers 403 to members) and "activity about me" (everyone). */
export function mountAudit(app: ConsoleApp): void {
  app.get("/app/t/:tenant/audit", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const { type, q } = listQuery(c);
    const list = await c.get("api")<Page>({ method: "GET", path: `/v1/tenants/${tenant.id}/audit-events?${q}` });
    if (!list.ok) return renderProblem(c, list.problem, tenantView(c, tenant));
    const base = pagePath(tenant.id, "/audit");
    return c.html(
      layout({
        title: "Audit log",
        signedIn: tenantView(c, tenant),
        body: html`${typeFilter(base, type)}${auditTable(`What happened in ${tenant.name}, newest first`, list.body.items, list.body.next_cursor, (cursor) => `${base}?${new URLSearchParams({ ...(type && { type }), cursor })}`)}`,
      }),
    );
  });
  app.get("/app/account/activity", signedIn(), async (c) => {
    const { type, q } = listQuery(c);
    const list = await c.get("api")<Page>({ method: "GET", path: `/v1/users/me/audit-events?${q}` });
    if (!list.ok) return renderProblem(c, list.problem, { csrf: c.get("csrf") });
    return c.html(
      layout({
        title: "Activity about me",
        signedIn: { csrf: c.get("csrf") },
        body: html`${typeFilter("/app/account/activity", type)}${auditTable("What was done to your account, newest first", list.body.items, list.body.next_cursor, (cursor) => `/app/account/activity?${new URLSearchParams({ ...(type && { type }), cursor })}`)}`,
      }),
    );
  });
}
