import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { settingsNav } from "../pages/settings-nav.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

/** Owners and admins may rename (the API's `tenants.rename` asks for admin); a member sees the name only. */
const MAY_RENAME = new Set(["owner", "admin"]);

function page(c: ConsoleContext, tenant: Tenant, problem?: ApiProblem, typed?: string) {
  const mayRename = MAY_RENAME.has(tenant.role);
  return c.html(
    layout({
      title: "Settings → Name",
      signedIn: tenantView(c, tenant),
      flash: flashOf(c, { renamed: "The tenant was renamed." }),
      body: html`${settingsNav(tenant.id, "name")}
${problemBox(problem)}
${
  mayRename
    ? html`<form method="post" action="/app/t/${tenant.id}/settings/name" class="stack">
  ${csrfField(c.get("csrf"))}
  <label for="tenant-new-name">Tenant name</label>
  <p class="meta" id="tenant-new-name-hint">Every member sees it in the tenant switcher; the tenant's id (<code>${tenant.id}</code>) does not change.</p>
  <input id="tenant-new-name" name="name" required maxlength="100" aria-describedby="tenant-new-name-hint" value="${typed ?? tenant.name}">
  <button type="submit">Rename tenant</button>
</form>`
    : html`<p>The tenant is called <strong>${tenant.name}</strong>. Only an owner or an admin can rename it.</p>`
}`,
    }),
    problem ? (problem.status === 403 ? 403 : 400) : 200,
  );
}

/** Settings → Name: rename the tenant (PATCH /v1/tenants/{id}, the API's `tenants.rename`). */
export function mountTenantRename(app: ConsoleApp): void {
  app.get("/app/t/:tenant/settings/name", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    return page(c, found.tenant);
  });
  app.post("/app/t/:tenant/settings/name", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const name = String((await c.req.parseBody()).name ?? "");
    const id = found.tenant.id;
    const answer = await c.get("api")<Tenant>({ method: "PATCH", path: `/v1/tenants/${id}`, body: { name } });
    if (answer.ok) return c.redirect(`/app/t/${id}/settings/name?done=renamed`, 303);
    // A refused name keeps what was typed above the API's reason; anything else is its own page.
    if (answer.problem.status === 400 || answer.problem.status === 422 || answer.problem.status === 403)
      return page(c, found.tenant, answer.problem, name);
    return renderProblem(c, answer.problem, tenantView(c, found.tenant));
  });
}
