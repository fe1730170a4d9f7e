import type { Tenant, TenantList } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { flashOf } from "./tenant-context.ts";

async function tenantsPage(c: ConsoleContext, problem?: ApiProblem, name = "") {
  const list = await c.get("api")<TenantList>({ method: "GET", path: "/v1/tenants" });
  if (!list.ok) return renderProblem(c, list.problem, { csrf: c.get("csrf") });
  const tenants = list.body.tenants;
  const rows = tenants.map(
    (t: Tenant) =>
      html`<tr><td><a href="/app/t/${t.id}">${t.name}</a></td><td>${t.role}</td><td><code>${t.id}</code></td></tr>`,
  );
  return c.html(
    layout({
      title: "Your tenants",
      signedIn: { csrf: c.get("csrf") },
      flash: flashOf(c, { deleted: "The tenant was deleted." }),
      body: html`${
        tenants.length
          ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Choose the tenant to act in</caption>
<thead><tr><th scope="col">Tenant</th><th scope="col">Your role</th><th scope="col">Id</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
          : html`<p>You are not a member of any tenant yet. Create one to connect your AWS Marketplace seller account.</p>`
      }
<h2 id="create">Create a tenant</h2>
${problemBox(problem)}
<form method="post" action="/app/tenants" class="stack">
  ${csrfField(c.get("csrf"))}
  <label for="tenant-name">Tenant name</label>
  <input id="tenant-name" name="name" required maxlength="100" value="${name}">
  <button type="submit">Create tenant</button>
</form>`,
    }),
    problem ? 400 : 200,
  );
}

/** The tenant switcher (the list; each tenant's pages live under /app/t/{id}) and tenant creation. */
export function mountTenants(app: ConsoleApp): void {
  app.get("/app/tenants", signedIn(), (c) => tenantsPage(c));
  app.post("/app/tenants", signedIn(), requireCsrf(), async (c) => {
    const name = String((await c.req.parseBody()).name ?? "");
    const created = await c.get("api")<Tenant>({ method: "POST", path: "/v1/tenants", body: { name } });
    if (!created.ok) return tenantsPage(c, created.problem, name);
    return c.redirect(`/app/t/${created.body.id}?done=created`, 303);
  });
}
